"""The host side of one execution's calls to upstream tools (the ``tools.*`` host calls of ``js_runtime/tools.js``).

Nothing in a request is trusted: the server and tool must be exposed, the call must be allowed by the server's
policy (and, under ``confirm``, by the user), the arguments must match the tool's input schema, and the result must
fit its size limit and match the tool's output schema. Every refusal and failure reaches the code as a ToolError
whose message says what happened and what to do; every call, allowed or not, is recorded for the result and the
log. Credentials never pass here: the connections hold them.

When the execution ends, however it ends (its result, its deadline, ``process.exit``, its worker killed, or the
client's cancellation or disconnect), :meth:`ToolsService.stop` cancels every call still in progress: the SDK then
sends ``notifications/cancelled`` to its server at once. A server that honours it stops; one that ignores it may
still finish the work, which is why such a call's record says ``mayHaveCompleted``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio

from sandbox_server.errors import ConsentPending, ConsentUnavailable
from sandbox_server.sandbox.protocol import HostCallFailed
from sandbox_server.settings import DEFAULT_MAX_CONSENT_ARGUMENT_CHARS
from sandbox_server.upstream.catalog import ToolInfo
from sandbox_server.upstream.connection import Upstream, UpstreamCallError
from sandbox_server.upstream.declarations import declaration, declarations
from sandbox_server.upstream.directory import Directory, Found
from sandbox_server.upstream.escapes import visible
from sandbox_server.upstream.policy import effects
from sandbox_server.upstream.question import QuestionTooLong, consent_question
from sandbox_server.upstream.search import search
from sandbox_server.upstream.typescript import function_name
from sandbox_server.upstream.values import error_text, result_value

__all__ = ["INLINE_CHECK_BYTES", "STOP_WAIT_S", "CallLimits", "CallRecord", "Consent", "ConsentAnswer", "ToolsService"]

logger = logging.getLogger("sandbox_server.upstream")

_SDK_OUTPUT_CHECK = "Invalid structured content returned by tool"
INLINE_CHECK_BYTES = 16_384
"""Arguments up to this size (as JSON) are checked against the input schema on the event loop: a check of a few
kilobytes takes well under a millisecond, less than handing it to a thread and back. Larger ones go to a thread."""
STOP_WAIT_S = 10.0
"""How long :meth:`ToolsService.stop` waits for the cancelled calls to end. Each ends as soon as its cancellation
is written (the SDK bounds that write to 5 s); a schema check already running in a thread finishes first."""
_MAY_HAVE_COMPLETED = frozenset({"cancelled", "timeout", "crashed"})

ConsentAnswer = Literal["accept", "decline", "cancel"]


Consent = Callable[[str], Awaitable[ConsentAnswer]]
"""Asks the user whether one call may run (the question as text): the answer, or raises ConsentUnavailable."""


@dataclass(frozen=True, slots=True)
class CallLimits:
    """Per-call limits: ``timeout_s`` (setting ``tool_call_timeout_s``), ``result_bytes``
    (``max_tool_result_bytes``) and ``consent_chars`` (``max_consent_argument_chars``)."""

    timeout_s: float
    result_bytes: int
    consent_chars: int = DEFAULT_MAX_CONSENT_ARGUMENT_CHARS


@dataclass(slots=True)
class CallRecord:
    """One upstream call as the structured result lists it."""

    server: str
    tool: str
    outcome: str
    """``ok``, ``error`` (the tool's isError), or why it did not run or failed: ``refused``, ``declined``,
    ``invalid_arguments``, ``invalid_result``, ``timeout``, ``unavailable``, ``crashed``, ``too_large``,
    ``protocol``, ``cancelled``."""
    started_ms: float = 0.0
    """When the call reached the host, in milliseconds since the execution's first call could."""
    duration_ms: float = 0.0
    argument_bytes: int = 0
    result_bytes: int = 0
    sent: bool = False
    """The request was handed to the server's connection: from then on the server may do the work."""

    @property
    def may_have_completed(self) -> bool:
        """Sent, and ended without the server's answer (cancelled, timed out, or the connection broke): the server
        was told to stop where it could be, but one that ignores ``notifications/cancelled`` may have finished."""
        return self.sent and self.outcome in _MAY_HAVE_COMPLETED

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "server": self.server,
            "tool": self.tool,
            "outcome": self.outcome,
            "startedMs": round(self.started_ms, 1),
            "durationMs": round(self.duration_ms, 1),
            "argumentBytes": self.argument_bytes,
            "resultBytes": self.result_bytes,
        }
        if self.may_have_completed:
            shown["mayHaveCompleted"] = True
        return shown


@dataclass(eq=False, slots=True)
class _Flight:
    """One call in progress: the scope :meth:`ToolsService.stop` cancels, and the event it waits for."""

    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    landed: anyio.Event = field(default_factory=anyio.Event)


@dataclass(slots=True)
class ToolsService:
    """Answers the ``tools.call``, ``tools.search`` and ``tools.describe`` calls of one execution.

    Args:
        directory: The live view of the upstream servers.
        limits: Per-call limits.
        consent: How to ask the user about a ``confirm`` call; None when nobody can be asked, with
            ``no_consent_reason`` saying why.
        on_call: Told of each finished call (progress for the caller).
    """

    directory: Directory
    limits: CallLimits
    consent: Consent | None = None
    no_consent_reason: str = "this client cannot be asked for consent"
    on_call: Callable[[CallRecord], Awaitable[None]] | None = None
    calls: list[CallRecord] = field(default_factory=list)
    _asking: anyio.Lock = field(default_factory=anyio.Lock)
    _origin: float = field(default_factory=time.monotonic)
    _flights: set[_Flight] = field(default_factory=set, init=False)
    _stopped: bool = field(default=False, init=False)

    async def __call__(self, kind: str, payload: Any) -> Any:
        if self._stopped:
            raise _failure("the execution has ended: no more calls are made for it", "cancelled")
        if not isinstance(payload, dict):
            raise _failure("a tools call needs an object", "invalid_request")
        flight = _Flight()
        self._flights.add(flight)
        try:
            with flight.scope:
                return await self._answer(kind, payload)
            raise _failure("the execution ended before this call finished; it was cancelled", "cancelled")
        finally:
            self._flights.discard(flight)
            flight.landed.set()

    async def stop(self) -> None:
        """The execution has ended: refuse further calls, cancel every call in progress (each in-flight upstream
        request gets ``notifications/cancelled`` at once) and wait until they have all ended, at most
        :data:`STOP_WAIT_S`. Shielded: it runs to its end in a task that is itself being cancelled."""
        self._stopped = True
        flights = list(self._flights)
        for flight in flights:
            flight.scope.cancel()
        with anyio.move_on_after(STOP_WAIT_S, shield=True) as waited:
            for flight in flights:
                await flight.landed.wait()
        if waited.cancelled_caught:
            logger.warning("%d upstream calls had not ended %g s after they were cancelled", len(flights), STOP_WAIT_S)

    async def _answer(self, kind: str, payload: dict[str, Any]) -> Any:
        if kind == "tools.call":
            return await self._call(payload)
        if kind == "tools.search":
            query = payload.get("query")
            limit = payload.get("limit")
            if not isinstance(query, str) or len(query) > 1000:
                raise _failure("tools.$search takes a string of at most 1000 characters", "invalid_request")
            count = limit if isinstance(limit, int) and 1 <= limit <= 200 else 20
            await self._reach(list(self.directory.upstreams))  # servers that failed are tried again, as for a call
            return search(self.directory.infos(), query, limit=count)
        if kind == "tools.describe":
            return await self._describe(payload.get("name"))
        raise _failure(f"this call cannot ask the host for {kind!r}", "invalid_request")

    async def _reach(self, upstreams: list[Upstream]) -> None:
        """Try again, together, to reach those of ``upstreams`` whose tools are not known (each as back-off allows,
        within its connect timeout), so that what the code asks of them sees their tools."""
        waiting = [upstream for upstream in upstreams if self.directory.exposed(upstream) is None]
        if not waiting:
            return
        async with anyio.create_task_group() as group:
            for upstream in waiting:
                group.start_soon(upstream.connect, self.limits.timeout_s)

    async def _describe(self, name: Any) -> str:
        if not isinstance(name, str) or not 0 < len(name) <= 300:
            raise _failure('tools.$describe takes a name: "server.tool", "tool" or "server"', "invalid_request")
        upstreams = list(self.directory.upstreams)
        named = [u for u in upstreams if name == u.name or name.startswith(u.name + ".")]
        # The server it names, or, for a tool not found among the known ones, every server that might list it.
        await self._reach(named or ([] if any(info.name == name for info in self.directory.infos()) else upstreams))
        infos = self.directory.infos()
        servers = self.directory.upstreams.names()
        if name in servers:
            own = [info for info in infos if info.server == name]
            if not own:
                raise _failure(f"server {name!r} lists no tools now", "unavailable")
            return declarations(own)
        # The real name or the declared one (``get_sum`` for ``get-sum``), with its server or alone.
        matches = [info for info in infos if name in (f"{info.server}.{info.name}", f"{info.server}.{declared(info)}")]
        if not matches:
            matches = [info for info in infos if info.name == name]
        if not matches:
            matches = [info for info in infos if declared(info) == name]
        if len(matches) > 1:
            where = ", ".join(f"{info.server}.{info.name}" for info in matches)
            raise _failure(f"{name!r} names several tools ({where}): say which, as server.tool", "ambiguous")
        if not matches:
            raise _failure(
                f"there is no exposed tool named {name!r}; tools.$search(words) lists the tools", "unknown_tool"
            )
        return declaration(matches[0])

    async def _call(self, payload: dict[str, Any]) -> Any:
        server, name, arguments = payload.get("server"), payload.get("tool"), payload.get("arguments")
        if not isinstance(server, str) or not isinstance(name, str) or not isinstance(arguments, dict):
            raise _failure("a tool call needs a server, a tool and an object of arguments", "invalid_request")
        record = CallRecord(server[:100], name[:200], "refused")
        record.argument_bytes = len(json.dumps(arguments, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        self.calls.append(record)
        started = time.monotonic()
        record.started_ms = (started - self._origin) * 1000
        try:
            return await self._run(record, server, name, arguments)
        except HostCallFailed as exc:
            record.outcome = str(exc.error.get("code", "error"))
            raise
        except ConsentPending:
            record.outcome = "paused"  # the run pauses for the user's answer and is run again with it
            raise
        except anyio.get_cancelled_exc_class():
            record.outcome = "cancelled"
            raise
        finally:
            record.duration_ms = (time.monotonic() - started) * 1000
            logger.info(
                "upstream call server=%s tool=%s outcome=%s duration_ms=%.1f argument_bytes=%d result_bytes=%d%s",
                visible(record.server),
                visible(record.tool),
                record.outcome,
                record.duration_ms,
                record.argument_bytes,
                record.result_bytes,
                " (sent: it may have completed upstream)" if record.may_have_completed else "",
            )
            if self.on_call is not None and record.outcome != "cancelled":
                await self.on_call(record)

    async def _run(self, record: CallRecord, server: str, name: str, arguments: dict[str, Any]) -> Any:
        found = self.directory.find(server, name)
        if isinstance(found, str) and server in self.directory.upstreams.names():
            await self._reach([self.directory.upstreams[server]])  # never listed its tools: try to reach it now
            found = self.directory.find(server, name)
        if isinstance(found, str):
            raise _failure(found, "unavailable" if "not available" in found else "unknown_tool", server, name)
        if found.decision.access == "refuse":
            raise _failure(found.decision.reason or "refused by policy", "refused", server, name)
        check = self.directory.check(server, found.tool, "input")
        if check is None:
            problems = []
        elif record.argument_bytes <= INLINE_CHECK_BYTES:
            problems = check.problems(arguments)
        else:
            # Off the event loop: the arguments may be large (the schema's patterns are bounded, see patterns.py).
            problems = await anyio.to_thread.run_sync(check.problems, arguments)
        if problems:
            raise _failure(
                f"the arguments do not match the input schema of {server}.{name}: "
                + "; ".join(problems)
                + f'. tools.$describe("{server}.{name}") shows the parameters',
                "invalid_arguments",
                server,
                name,
            )
        if found.decision.access == "confirm":
            await self._ask(found, arguments)
        own_timeout = found.upstream.config.timeout_s
        try:
            result, record.result_bytes = await found.upstream.call(
                name,
                arguments,
                timeout_s=own_timeout if own_timeout is not None else self.limits.timeout_s,
                max_result_bytes=self.limits.result_bytes,
                on_sent=lambda: setattr(record, "sent", True),
            )
        except UpstreamCallError as exc:
            message = str(exc)
            if exc.reason == "protocol" and message.startswith(_SDK_OUTPUT_CHECK):
                # The SDK's client checks structuredContent against the outputSchema itself, before we could.
                detail = message.split(": ", 1)[-1]
                raise _failure(
                    f"{server}.{name} returned a result that does not match its own output schema: {detail}",
                    "invalid_result",
                    server,
                    name,
                ) from None
            if exc.reason == "timeout":
                message += (
                    " (tool_call_timeout_s)"
                    if own_timeout is None
                    else " (the server's timeout in the upstream configuration)"
                )
            elif exc.reason == "too_large":
                message += " (max_tool_result_bytes)"
            raise _failure(message, exc.reason, server, name) from None
        if result.is_error:
            record.outcome = "error"
            raise HostCallFailed(
                {"name": "ToolError", "message": error_text(result), "code": "error", "server": server, "tool": name}
            )
        if result.structured_content is not None:
            output = self.directory.check(server, found.tool, "output")
            wrong = output.problems(result.structured_content) if output is not None else []
            if wrong:
                raise _failure(
                    f"{server}.{name} returned a result that does not match its own output schema: " + "; ".join(wrong),
                    "invalid_result",
                    server,
                    name,
                )
        record.outcome = "ok"
        return result_value(result)

    async def _ask(self, found: Found, arguments: dict[str, Any]) -> None:
        server, name = found.upstream.name, found.tool.name
        if self.consent is None:
            raise _failure(
                f"{server}.{name} needs the user's consent for each call, and {self.no_consent_reason}",
                "refused",
                server,
                name,
            )
        try:
            message = consent_question(
                server,
                name,
                found.tool.description,
                effects(found.tool),
                arguments,
                max_argument_chars=self.limits.consent_chars,
            )
        except QuestionTooLong as exc:
            raise _failure(
                f"{server}.{name} needs the user's consent for each call, and its arguments take {exc.size} characters "
                f"to show in full, more than the {exc.limit} a consent question shows (max_consent_argument_chars): "
                "the call was refused, not sent; pass less in one call",
                "too_large",
                server,
                name,
            ) from None
        async with self._asking:  # one question at a time, whatever the code runs in parallel
            try:
                answer = await self.consent(message)
            except ConsentUnavailable as exc:
                raise _failure(
                    f"{server}.{name} needs the user's consent for each call, and {exc}", "refused", server, name
                ) from None
        if answer != "accept":
            verb = "declined" if answer == "decline" else "dismissed the request for"
            raise _failure(f"the user {verb} this call of {server}.{name}", "declined", server, name)


def declared(info: ToolInfo) -> str:
    """The name ``$describe`` declares a tool by (``get_sum`` for ``get-sum``)."""
    return function_name(info.name)


def _failure(message: str, code: str, server: str | None = None, tool: str | None = None) -> HostCallFailed:
    error: dict[str, Any] = {"name": "ToolError", "message": message, "code": code}
    if server is not None:
        error["server"] = server
    if tool is not None:
        error["tool"] = tool
    return HostCallFailed(error)
