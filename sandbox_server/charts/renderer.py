"""The render process as the server sees it: checked charts go to it one at a time, and it is killed when it is late
or broken and started again at once, for the next chart.

Time: a chart may take at most the per-chart cap (:attr:`RenderLimits.timeout_s`) and never past the caller's own
deadline (what is left of a call's ``timeout_ms``), whichever ends first; waiting for its turn counts too.
Fairness: charts wait their turn in the order they were asked for (a first-in, first-out lock), and a call asks for
its charts one after the other, so a call's chart waits for at most one chart of each other call ahead of it, each
at most the per-chart cap. A chart that renders for long has a spare process started beside it, which takes over at
once if the chart is stopped, so the next chart does not wait for a fresh start (about 1.5 s); at most one spare
exists, kept for the next such chart.

vl-convert carries its own V8, so it runs only in :mod:`sandbox_server.charts.render_worker`, never in this process.
The parent enforces the time limit from outside (a render stuck in native code cannot stop itself), follows the
process's stderr as every supervised child's (its log, and the last lines that explain a death;
:mod:`sandbox_server.platform.child`), and checks the PNG it returns.
"""

from __future__ import annotations

import base64
import binascii
import importlib.util
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread

from sandbox_server.charts.description import describe
from sandbox_server.charts.images import image_size
from sandbox_server.charts.limits import RenderError, RenderLimits
from sandbox_server.charts.render_process import WORKER_MODULE, RenderProcess
from sandbox_server.charts.sanitize import Checked, check_item
from sandbox_server.identity import install_line
from sandbox_server.sandbox.protocol import ProtocolError

__all__ = ["SPARE_AFTER_S", "STARTUP_TIMEOUT_S", "WORKER_MODULE", "Rendered", "Renderer", "charts_available"]

logger = logging.getLogger(__name__)

STARTUP_TIMEOUT_S = 60.0
"""How long a render process may take to start and warm up (about 2 s when the machine is idle)."""
_BROKEN = (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError, anyio.ClosedResourceError,
           ProtocolError, OSError)  # fmt: skip
SPARE_AFTER_S = 1.0
"""How long a chart may render before a spare render process is started beside it (at most half the chart's time)."""
_OUT_OF_TIME = "the call's time limit (timeout_ms, which its charts share with its code) ran out"
_SIMPLER = "use less data or fewer marks, or a smaller chart"
_MORE_TIME = "give the call a larger timeout_ms, or " + _SIMPLER


def charts_available() -> bool:
    """Whether the charts extra is installed (vl-convert and defusedxml), found without importing either."""
    return all(importlib.util.find_spec(name) is not None for name in ("vl_convert", "defusedxml"))


@dataclass(frozen=True, slots=True)
class Rendered:
    """One rendered chart.

    Attributes:
        png: The PNG bytes.
        width: Its width in pixels.
        height: Its height in pixels.
        kind: ``vega-lite``, ``vega`` or ``svg``.
        description: A short text for the model, e.g. ``bar chart (vega-lite), 640x400``.
    """

    png: bytes
    width: int
    height: int
    kind: str
    description: str


class Renderer:
    """One supervised render process; charts are rendered one at a time, in the order they were asked for.

    Args:
        limits: The limits of every chart.
    """

    def __init__(self, limits: RenderLimits | None = None) -> None:
        self.limits = limits or RenderLimits()
        self._lock = anyio.Lock()
        self._process: RenderProcess | None = None
        self._spare: RenderProcess | None = None
        self._warm = True
        self._closed = False
        self._next_id = 0

    @property
    def pid(self) -> int | None:
        """The render process's id, None while none runs."""
        return None if self._process is None else self._process.pid

    async def start(self, warm: bool = True) -> None:
        """Start the render process unless it runs; it warms up (~1.7 s) on its own while this returns at once."""
        if not charts_available():
            raise RenderError(
                f"charts are not available on this server: it lacks the charts extra ({install_line('charts')})"
            )
        self._warm = warm
        async with self._lock:
            if self._process is None and not self._closed:
                self._process = await RenderProcess.spawn(self.limits, warm)

    async def wait_ready(self) -> dict[str, Any]:
        """Start the process if needed and wait until it is ready; returns its ``ready`` message (``vlConvert``
        version, ``warmMs``)."""
        await self.start(self._warm)
        async with self._lock:
            if self._closed:
                raise RenderError("the chart renderer is shut down")
            process = await self._ready_process()
            assert process.ready is not None
            return process.ready

    async def render(self, item: Mapping[str, Any], *, deadline: float | None = None) -> Rendered:
        """Check ``item`` and render it to PNG.

        Args:
            item: ``{"kind": "vega-lite" | "vega", "spec": {...}}`` or ``{"kind": "svg", "svg": "<svg ...>"}``, with
                an optional ``"scale"`` (above 0, at most 4; default 1).
            deadline: When the caller's own time runs out (on :func:`anyio.current_time`'s clock): the wait for
                the chart's turn and its render both end then, the render by killing the render process.

        Raises:
            RenderError: The chart was refused, could not be rendered, took longer than the per-chart cap or than
                the caller's deadline, or the render process died; the message says what to change.
        """
        if not charts_available():
            raise RenderError(
                f"charts are not available on this server: it lacks the charts extra ({install_line('charts')})"
            )
        # Off the event loop: checking a specification of 2 MB takes a quarter of a second.
        checked = await anyio.to_thread.run_sync(check_item, item, self.limits)
        field = "svg" if checked.kind == "svg" else "spec"
        message = {"op": "render", "kind": checked.kind, field: checked.source, "scale": checked.scale}
        if deadline is not None and anyio.current_time() >= deadline:
            raise RenderError(f"{_OUT_OF_TIME} before this chart could be drawn: {_MORE_TIME}")
        turn = False
        with anyio.move_on_at(math.inf if deadline is None else deadline):
            await self._lock.acquire()
            turn = True
        if not turn:
            raise RenderError(
                f"{_OUT_OF_TIME} while this chart waited for its turn (the renderer was drawing other calls' charts): "
                "call again, or give the call a larger timeout_ms"
            )
        try:
            if self._closed:
                raise RenderError("the chart renderer is shut down")
            answer = await self._exchange(message, deadline)
        finally:
            self._lock.release()
        return self._rendered(answer, checked)

    async def aclose(self) -> None:
        """Stop the render process (and a spare); a render in progress fails, and later ones are refused."""
        self._closed = True
        if self._spare is not None:
            spare, self._spare = self._spare, None
            await spare.reap()
        if self._process is not None:
            await self._discard(self._process)

    async def _ready_process(self, deadline: float | None = None) -> RenderProcess:
        """The render process, started if none runs, once it is ready.

        A caller whose ``deadline`` comes first leaves without harming the process, which goes on starting for the
        next chart (its ``ready`` message is read where this caller stopped); only the start-up limit discards it.
        """
        if self._process is not None and self._process.returncode is not None:
            logger.warning("the render process ended while idle (%s)", self._process.death())
            await self._discard(self._process)
        if self._process is None:
            self._process = await RenderProcess.spawn(self.limits, self._warm)
        process = self._process
        if process.ready is not None:
            return process
        started_by = process.started_at + STARTUP_TIMEOUT_S
        try:
            with anyio.move_on_at(started_by if deadline is None else min(started_by, deadline)):
                message = await process.receive(1 << 16)
                if message.get("op") != "ready":
                    raise ProtocolError(f"the render process began with {message.get('op')!r}, not 'ready'")
                process.ready = message
                return process
        except _BROKEN as exc:
            await self._discard(process)
            logger.warning("the render process did not start: %s (%s)", exc, process.death())
            raise RenderError("the chart renderer could not start; charts cannot be drawn now") from exc
        if deadline is not None and deadline < started_by:
            raise RenderError(f"{_OUT_OF_TIME} while the chart renderer was starting: {_MORE_TIME}")
        await self._discard(process)
        raise RenderError(
            f"the chart renderer did not start within {STARTUP_TIMEOUT_S:g} s; charts cannot be drawn now"
        )

    async def _exchange(self, message: dict[str, Any], deadline: float | None = None) -> dict[str, Any]:
        self._next_id += 1
        request = {**message, "id": self._next_id}
        timeout = self.limits.timeout_s
        process = await self._ready_process(deadline)
        cap_ends = anyio.current_time() + timeout
        ends = cap_ends if deadline is None else min(cap_ends, deadline)
        done = False
        try:
            with anyio.move_on_at(ends):
                process = await self._hand_over(process, request, deadline)
                answer = await self._answer(process, ends)
                if answer.get("id") != request["id"]:
                    raise ProtocolError(f"answer for request {answer.get('id')!r}, not {request['id']}")
                done = True
        except _BROKEN as exc:
            await self._replace(process)
            if self._closed:
                raise RenderError("the chart renderer was shut down while drawing this chart") from exc
            logger.warning("the render process died while rendering: %s (%s)", exc, process.death())
            if process.ran_out_of_memory():
                raise RenderError(
                    f"the chart needed more memory than the renderer may use ({self.limits.memory_mb} MB): "
                    "lower width/height or scale, or use less data"
                ) from exc
            raise RenderError(
                "the chart renderer crashed while drawing this chart (it starts again for the next one): "
                "simplify the chart (less data, fewer marks, a smaller size)"
            ) from exc
        finally:
            if not done:  # late, or cancelled from outside: its answer must not reach the next request
                await self._replace(process)
        if not done and ends < cap_ends:
            raise RenderError(f"{_OUT_OF_TIME} while this chart was being drawn, and it was stopped: {_MORE_TIME}")
        if not done:
            raise RenderError(
                f"the chart took longer than {timeout:g} s to render and was stopped ({timeout:g} s is the most one "
                f"chart may take): {_SIMPLER}"
            )
        return answer

    async def _answer(self, process: RenderProcess, ends: float) -> dict[str, Any]:
        """The answer of ``process`` to the chart it has; past :data:`SPARE_AFTER_S` (or half its time) a spare process
        is started meanwhile, so that if this chart must be stopped, the next one need not wait for a fresh start."""
        max_bytes = self.limits.max_png_bytes * 4 // 3 + (1 << 16)
        with anyio.move_on_at(min(ends, anyio.current_time() + min(SPARE_AFTER_S, (ends - anyio.current_time()) / 2))):
            return await process.receive(max_bytes)
        await self._start_spare()
        return await process.receive(max_bytes)  # goes on where the first wait stopped

    async def _start_spare(self) -> None:
        if self._spare is not None or self._closed:
            return
        with anyio.CancelScope(shield=True):  # a process started must be kept, to be reaped
            try:
                self._spare = await RenderProcess.spawn(self.limits, self._warm)
            except OSError:
                logger.warning("a spare render process could not be started", exc_info=True)

    async def _hand_over(
        self, process: RenderProcess, request: dict[str, Any], deadline: float | None
    ) -> RenderProcess:
        """Send ``request`` and wait for the process to confirm it has it; returns the process that has it.

        A process that dies before it confirms (killed while idle, before its death was noticed) never saw the
        chart, which is not to blame: the chart goes to a fresh process, once.
        """
        try:
            await process.send(request)
            confirmation = await process.receive(1 << 16)
        except _BROKEN:
            await self._discard(process)
            logger.warning("the render process was gone before it took a chart (%s)", process.death())
            process = await self._ready_process(deadline)
            await process.send(request)
            confirmation = await process.receive(1 << 16)
        if confirmation.get("op") != "started" or confirmation.get("id") != request["id"]:
            raise ProtocolError(f"the render process did not confirm request {request['id']}")
        return process

    async def _discard(self, process: RenderProcess) -> None:
        if self._process is process:
            self._process = None
        await process.reap()

    async def _replace(self, process: RenderProcess) -> None:
        """Discard ``process``; the spare, when one was started during the chart, takes its place, else the next
        process starts at once, so that it warms up while no chart waits for it."""
        await self._discard(process)
        if self._closed or self._process is not None:
            return
        if self._spare is not None:
            self._process, self._spare = self._spare, None
            return
        with anyio.CancelScope(shield=True):  # also when the chart's own call was cancelled
            try:
                self._process = await RenderProcess.spawn(self.limits, self._warm)
            except OSError:
                logger.warning("the render process could not be started again; the next chart tries", exc_info=True)

    def _rendered(self, answer: dict[str, Any], checked: Checked) -> Rendered:
        op = answer.get("op")
        if op == "refused":
            raise RenderError(str(answer.get("message")))
        if op == "failed":
            raise RenderError(f"the chart could not be rendered: {answer.get('message')}")
        try:
            png = base64.b64decode(str(answer.get("png")), validate=True)
        except (binascii.Error, ValueError) as exc:
            raise RenderError("the chart renderer answered with a broken image") from exc
        size = image_size(png)
        if op != "rendered" or size is None or size[0] != "png":
            raise RenderError("the chart renderer did not return a PNG")
        _, width, height = size
        self.limits.check_canvas(width, height, "the chart" if checked.kind != "svg" else "the SVG")
        if len(png) > self.limits.max_png_bytes:
            raise RenderError(f"the chart's PNG is {len(png)} bytes, more than {self.limits.max_png_bytes}")
        return Rendered(png, width, height, checked.kind, describe(checked.kind, checked.source, width, height))
