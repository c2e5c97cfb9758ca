"""The render process as the server sees it: checked charts go to it one at a time, and it is killed when it is late
or broken and started again for the next chart.

vl-convert carries its own V8, so it runs only in :mod:`sandbox_server.charts.render_worker`, never in this process.
The parent enforces the time limit from outside (a render stuck in native code cannot stop itself), reads the
process's stderr on a thread (its log, and the last lines that explain a death), and checks the PNG it returns.
"""

from __future__ import annotations

import base64
import binascii
import collections
import contextlib
import importlib.util
import logging
import os
import signal
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.abc
import anyio.to_thread
from anyio.streams.buffered import BufferedByteReceiveStream

from sandbox_server.charts.images import image_size
from sandbox_server.charts.limits import RenderError, RenderLimits
from sandbox_server.charts.sanitize import Checked, check_item
from sandbox_server.distribution import install_line
from sandbox_server.sandbox.protocol import HEADER, ProtocolError, decode_frame, encode_frame, frame_length

__all__ = ["STARTUP_TIMEOUT_S", "WORKER_MODULE", "Rendered", "Renderer", "charts_available", "describe"]

logger = logging.getLogger(__name__)

WORKER_MODULE = "sandbox_server.charts.render_worker"
STARTUP_TIMEOUT_S = 60.0
"""How long a render process may take to start and warm up (about 2 s when the machine is idle)."""
_STDERR_TAIL_LINES = 20
_MAX_STDERR_LINE = 4096
_REAP_TIMEOUT_S = 5.0
# Variables the render process inherits; the rest of the server's environment (tokens, proxies) stays out.
_INHERITED_ENV = ("PATH", "PYTHONHOME", "TMPDIR", "SANDBOX_PLATFORM")
_FIXED_ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
_BROKEN = (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError, anyio.ClosedResourceError,
           ProtocolError, OSError)  # fmt: skip
_OOM_MARKERS = ("memory allocation of", "out of memory", "allocation failed", "cannot allocate memory")
_MARK_NAMES = {
    "bar": "bar chart", "line": "line chart", "trail": "line chart", "area": "area chart", "point": "scatter plot",
    "circle": "scatter plot", "square": "scatter plot", "arc": "pie chart", "rect": "heatmap", "tick": "strip plot",
    "boxplot": "box plot", "errorbar": "error bars", "errorband": "error band", "geoshape": "map",
    "text": "text chart", "rule": "rule chart",
}  # fmt: skip


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


def describe(kind: str, source: dict[str, Any] | str, width: int, height: int) -> str:
    """A short description of a chart: what it shows, its kind and its size in pixels."""
    if kind == "svg":
        return f"SVG image, {width}x{height}"
    name = _chart_name(source) if isinstance(source, dict) and kind == "vega-lite" else "chart"
    return f"{name} ({kind}), {width}x{height}"


def _chart_name(spec: dict[str, Any]) -> str:
    mark = spec.get("mark")
    mark_type = mark.get("type") if isinstance(mark, dict) else mark
    if isinstance(mark_type, str):
        return _MARK_NAMES.get(mark_type, f"{mark_type} chart")
    for key in ("hconcat", "vconcat", "concat"):
        if isinstance(spec.get(key), list):
            return f"composite chart of {len(spec[key])} views"
    if isinstance(spec.get("layer"), list):
        names = {_chart_name(layer) for layer in spec["layer"] if isinstance(layer, dict)}
        return names.pop() if len(names) == 1 else "layered chart"
    if isinstance(spec.get("spec"), dict):
        return ("faceted " if "facet" in spec else "repeated ") + _chart_name(spec["spec"])
    return "chart"


def _env() -> dict[str, str]:
    env = {name: os.environ[name] for name in _INHERITED_ENV if name in os.environ} | _FIXED_ENV
    env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(entry) for entry in sys.path if entry)
    return env


class _RenderProcess:
    """One render process: its pipes, its stderr tail, and whether it has announced itself ready."""

    def __init__(self, process: anyio.abc.Process, stderr_fd: int) -> None:
        assert process.stdin is not None and process.stdout is not None
        self._process = process
        self._stdin = process.stdin
        self._stdout = BufferedByteReceiveStream(process.stdout)
        self.tail: collections.deque[str] = collections.deque(maxlen=_STDERR_TAIL_LINES)
        self.ready: dict[str, Any] | None = None
        self._reaped = False
        self._stderr = threading.Thread(target=self._follow, args=(stderr_fd,), name=f"render-{self.pid}", daemon=True)
        self._stderr.start()

    @classmethod
    async def spawn(cls, limits: RenderLimits, warm: bool) -> _RenderProcess:
        command = [sys.executable, "-P", "-m", WORKER_MODULE, *limits.to_args(), *([] if warm else ["--no-warm"])]
        read_fd, write_fd = os.pipe()
        try:
            process = await anyio.open_process(command, env=_env(), cwd="/", start_new_session=True, stderr=write_fd)
        except BaseException:
            os.close(read_fd)
            raise
        finally:
            os.close(write_fd)
        return cls(process, read_fd)

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    def _follow(self, fd: int) -> None:
        with open(fd, "rb") as stream:
            while line := stream.readline(_MAX_STDERR_LINE):
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    self.tail.append(text)
                    logger.debug("render process %d: %s", self.pid, text)

    async def send(self, message: Mapping[str, Any]) -> None:
        await self._stdin.send(encode_frame(message))

    async def receive(self, max_bytes: int) -> dict[str, Any]:
        header = await self._stdout.receive_exactly(HEADER.size)
        length = frame_length(header)
        if length > max_bytes:
            raise ProtocolError(f"the render process announced {length} bytes, more than {max_bytes}")
        return decode_frame(await self._stdout.receive_exactly(length))

    async def reap(self) -> None:
        """Kill the process (unless it has ended) and wait for it; safe to call more than once."""
        if self._reaped:
            return
        self._reaped = True
        if self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._process.pid, signal.SIGKILL)
        with anyio.CancelScope(shield=True):
            with anyio.move_on_after(_REAP_TIMEOUT_S):
                await self._process.wait()
                await anyio.to_thread.run_sync(self._stderr.join, _REAP_TIMEOUT_S)  # its last words
            await self._process.aclose()

    def ran_out_of_memory(self) -> bool:
        """Whether its stderr says an allocation failed (the data-size limit, or the machine, refused memory)."""
        return any(marker in line.lower() for line in self.tail for marker in _OOM_MARKERS)

    def death(self) -> str:
        """How the process ended, and its last stderr line, for the log."""
        code = self._process.returncode
        how = "still running" if code is None else f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return how + (f"; last said: {self.tail[-1]}" if self.tail else "")


class Renderer:
    """One supervised render process; charts are rendered one at a time (concurrent calls wait their turn).

    Args:
        limits: The limits of every chart.
    """

    def __init__(self, limits: RenderLimits | None = None) -> None:
        self.limits = limits or RenderLimits()
        self._lock = anyio.Lock()
        self._process: _RenderProcess | None = None
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
                self._process = await _RenderProcess.spawn(self.limits, warm)

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

    async def render(self, item: Mapping[str, Any]) -> Rendered:
        """Check ``item`` and render it to PNG.

        Args:
            item: ``{"kind": "vega-lite" | "vega", "spec": {...}}`` or ``{"kind": "svg", "svg": "<svg ...>"}``, with
                an optional ``"scale"`` (above 0, at most 4; default 1).

        Raises:
            RenderError: The chart was refused, could not be rendered, took longer than the time limit, or the
                render process died; the message says what to change.
        """
        if not charts_available():
            raise RenderError(
                f"charts are not available on this server: it lacks the charts extra ({install_line('charts')})"
            )
        checked = check_item(item, self.limits)
        field = "svg" if checked.kind == "svg" else "spec"
        message = {"op": "render", "kind": checked.kind, field: checked.source, "scale": checked.scale}
        async with self._lock:
            if self._closed:
                raise RenderError("the chart renderer is shut down")
            answer = await self._exchange(message)
        return self._rendered(answer, checked)

    async def aclose(self) -> None:
        """Stop the render process; a render in progress fails, and later ones are refused."""
        self._closed = True
        if self._process is not None:
            await self._discard(self._process)

    async def _ready_process(self) -> _RenderProcess:
        if self._process is not None and self._process.returncode is not None:
            logger.warning("the render process ended while idle (%s)", self._process.death())
            await self._discard(self._process)
        if self._process is None:
            self._process = await _RenderProcess.spawn(self.limits, self._warm)
        process = self._process
        if process.ready is not None:
            return process
        done = False
        try:
            with anyio.move_on_after(STARTUP_TIMEOUT_S):
                message = await process.receive(1 << 16)
                if message.get("op") != "ready":
                    raise ProtocolError(f"the render process began with {message.get('op')!r}, not 'ready'")
                process.ready = message
                done = True
        except _BROKEN as exc:
            await self._discard(process)
            logger.warning("the render process did not start: %s (%s)", exc, process.death())
            raise RenderError("the chart renderer could not start; charts cannot be drawn now") from exc
        finally:
            if not done:
                await self._discard(process)
        if not done:
            raise RenderError(
                f"the chart renderer did not start within {STARTUP_TIMEOUT_S:g} s; charts cannot be drawn now"
            )
        return process

    async def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        request = {**message, "id": self._next_id}
        timeout = self.limits.timeout_s
        process = await self._ready_process()
        done = False
        try:
            with anyio.move_on_after(timeout):
                process = await self._hand_over(process, request)
                answer = await process.receive(self.limits.max_png_bytes * 4 // 3 + (1 << 16))
                if answer.get("id") != request["id"]:
                    raise ProtocolError(f"answer for request {answer.get('id')!r}, not {request['id']}")
                done = True
        except _BROKEN as exc:
            await self._discard(process)
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
                await self._discard(process)
        if not done:
            raise RenderError(
                f"the chart took longer than {timeout:g} s to render and was stopped: "
                "use less data or fewer marks, or a smaller chart"
            )
        return answer

    async def _hand_over(self, process: _RenderProcess, request: dict[str, Any]) -> _RenderProcess:
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
            process = await self._ready_process()
            await process.send(request)
            confirmation = await process.receive(1 << 16)
        if confirmation.get("op") != "started" or confirmation.get("id") != request["id"]:
            raise ProtocolError(f"the render process did not confirm request {request['id']}")
        return process

    async def _discard(self, process: _RenderProcess) -> None:
        if self._process is process:
            self._process = None
        await process.reap()

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
