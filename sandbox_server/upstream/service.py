"""The host side of one execution's calls to upstream tools (the ``tools.*`` host calls of ``js_runtime/tools.js``).

Nothing in a request is trusted: the server and tool must be exposed, the call must be allowed by the server's
policy (and, under ``confirm``, by the user), the arguments must match the tool's input schema, and the result must
fit its size limit and match the tool's output schema. Every refusal and failure reaches the code as a ToolError
whose message says what happened and what to do; every call, allowed or not, is recorded for the result and the
log. Credentials never pass here: the connections hold them.
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
from sandbox_server.upstream.connection import UpstreamCallError
from sandbox_server.upstream.declarations import declaration, declarations
from sandbox_server.upstream.directory import Directory, Found
from sandbox_server.upstream.policy import effects
from sandbox_server.upstream.search import search
from sandbox_server.upstream.values import error_text, result_value

__all__ = ["CallLimits", "CallRecord", "Consent", "ConsentAnswer", "ToolsService"]

logger = logging.getLogger("sandbox_server.upstream")

_SDK_OUTPUT_CHECK = "Invalid structured content returned by tool"

ConsentAnswer = Literal["accept", "decline", "cancel"]


Consent = Callable[[str], Awaitable[ConsentAnswer]]
"""Asks the user whether one call may run (the question as text): the answer, or raises ConsentUnavailable."""


@dataclass(frozen=True, slots=True)
class CallLimits:
    """Per-call limits: ``timeout_s`` (setting ``tool_call_timeout_s``) and ``result_bytes``
    (``max_tool_result_bytes``)."""

    timeout_s: float
    result_bytes: int


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

    def to_json(self) -> dict[str, Any]:
        return {
            "server": self.server,
            "tool": self.tool,
            "outcome": self.outcome,
            "startedMs": round(self.started_ms, 1),
            "durationMs": round(self.duration_ms, 1),
            "argumentBytes": self.argument_bytes,
            "resultBytes": self.result_bytes,
        }


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

    async def __call__(self, kind: str, payload: Any) -> Any:
        if not isinstance(payload, dict):
            raise _failure("a tools call needs an object", "invalid_request")
        if kind == "tools.call":
            return await self._call(payload)
        if kind == "tools.search":
            query = payload.get("query")
            limit = payload.get("limit")
            if not isinstance(query, str) or len(query) > 1000:
                raise _failure("tools.$search takes a string of at most 1000 characters", "invalid_request")
            count = limit if isinstance(limit, int) and 1 <= limit <= 200 else 20
            return search(self.directory.infos(), query, limit=count)
        if kind == "tools.describe":
            return self._describe(payload.get("name"))
        raise _failure(f"this call cannot ask the host for {kind!r}", "invalid_request")

    def _describe(self, name: Any) -> str:
        if not isinstance(name, str) or not 0 < len(name) <= 300:
            raise _failure('tools.$describe takes a name: "server.tool", "tool" or "server"', "invalid_request")
        infos = self.directory.infos()
        servers = self.directory.upstreams.names()
        if name in servers:
            own = [info for info in infos if info.server == name]
            if not own:
                raise _failure(f"server {name!r} lists no tools now", "unavailable")
            return declarations(own)
        matches = [info for info in infos if f"{info.server}.{info.name}" == name]
        if not matches:
            matches = [info for info in infos if info.name == name]
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
                "upstream call server=%s tool=%s outcome=%s duration_ms=%.1f argument_bytes=%d result_bytes=%d",
                record.server,
                record.tool,
                record.outcome,
                record.duration_ms,
                record.argument_bytes,
                record.result_bytes,
            )
            if self.on_call is not None and record.outcome != "cancelled":
                await self.on_call(record)

    async def _run(self, record: CallRecord, server: str, name: str, arguments: dict[str, Any]) -> Any:
        found = self.directory.find(server, name)
        if isinstance(found, str) and server in self.directory.upstreams.names():
            upstream = self.directory.upstreams[server]
            if self.directory.exposed(upstream) is None:  # never listed its tools: try to reach it now
                await upstream.connect(self.limits.timeout_s)
                found = self.directory.find(server, name)
        if isinstance(found, str):
            raise _failure(found, "unavailable" if "not available" in found else "unknown_tool", server, name)
        if found.decision.access == "refuse":
            raise _failure(found.decision.reason or "refused by policy", "refused", server, name)
        check = self.directory.check(server, found.tool, "input")
        # Off the event loop: the schema and the arguments may both be large (patterns are bounded, see patterns.py).
        problems = await anyio.to_thread.run_sync(check.problems, arguments) if check is not None else []
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
        try:
            result = await found.upstream.call(
                name, arguments, timeout_s=self.limits.timeout_s, max_result_bytes=self.limits.result_bytes
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
                message += " (tool_call_timeout_s)"
            elif exc.reason == "too_large":
                message += " (max_tool_result_bytes)"
            raise _failure(message, exc.reason, server, name) from None
        record.result_bytes = len(result.model_dump_json(by_alias=True, exclude_none=True))
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
        shown = json.dumps(arguments, ensure_ascii=False, indent=1)
        if len(shown) > 2000:
            shown = shown[:2000] + f"… ({len(shown) - 2000} more characters)"
        description = (found.tool.description or "").strip().splitlines()[0][:300] if found.tool.description else ""
        message = (
            f"Code running in execute_js_with_tools wants to call the tool {name!r} of the server {server!r}"
            + (f" ({description})" if description else "")
            + f".\nWhat its server says it does: {effects(found.tool)}.\nArguments:\n{shown}\n\nAllow this one call?"
        )
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


def _failure(message: str, code: str, server: str | None = None, tool: str | None = None) -> HostCallFailed:
    error: dict[str, Any] = {"name": "ToolError", "message": message, "code": code}
    if server is not None:
        error["server"] = server
    if tool is not None:
        error["tool"] = tool
    return HostCallFailed(error)
