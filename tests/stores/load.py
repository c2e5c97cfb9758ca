"""The clients of the fault test: each a real MCP client (``mcp.Client``, the current revision) behind HAProxy, making
mixed calls one after another and checking every answer against what it computes itself. Each request carries an
``X-Request-Id`` that HAProxy logs with the replica that served it, so that every failure can be traced."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

KINDS = ("plain", "session", "add")
SESSION_STEP = "globalThis.steps = (globalThis.steps ?? 0) + 1; steps"


@dataclass
class Outcome:
    """One request a client made: a tool call, or opening its connection (discovery)."""

    id: str
    kind: str
    started: float
    ended: float = 0.0
    ok: bool = False
    detail: str = ""


@dataclass
class LoadClient:
    """One client; ``steps`` counts the session steps it saw applied, ``handle`` is its last good answer's."""

    index: int
    url: str
    calls: int
    outcomes: list[Outcome] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    steps: int = 0
    handle: str | None = None
    current: str = ""
    made: int = 0

    def __post_init__(self) -> None:
        self._random = random.Random(self.index)
        self._retry_step = False

    async def _tag(self, request: httpx2.Request) -> None:
        request.headers["X-Request-Id"] = self.current

    async def run(self, done: list[int]) -> None:
        """Make ``calls`` calls, reconnecting after a connection that broke; ``done[0]`` counts every client's."""
        timeout = httpx2.Timeout(30, read=120)
        # Each request on a connection of its own: when a replica dies under a request that came on a kept-alive
        # connection, HAProxy (2.6) closes that connection without an answer and logs nothing, so the failure could
        # not be traced to the replica; on a new connection it answers 502 and logs it.
        limits = httpx2.Limits(max_keepalive_connections=0)
        async with httpx2.AsyncClient(event_hooks={"request": [self._tag]}, timeout=timeout, limits=limits) as http:
            opened = 0
            while self.made < self.calls:
                opened += 1
                self.current = f"c{self.index}-open{opened}"
                opening = Outcome(self.current, "connect", time.time())
                in_flight: list[Outcome] = [opening]
                try:
                    async with Client(streamable_http_client(self.url, http_client=http), mode="auto") as client:
                        opening.ended, opening.ok = time.time(), True
                        self.outcomes.append(opening)
                        in_flight.clear()
                        while self.made < self.calls:
                            outcome = Outcome(f"c{self.index}-{self.made}", self._next_kind(), time.time())
                            in_flight.append(outcome)
                            self.current = outcome.id
                            with anyio.fail_after(150):
                                await self._call(client, outcome)
                            in_flight.clear()
                            self._finish(outcome, done)
                except Exception as exc:  # the connection broke mid-request: the SDK's transport ends with it
                    for outcome in in_flight:
                        outcome.ok, outcome.detail = False, _leaves(exc)
                        if outcome.kind == "connect":
                            outcome.ended = time.time()
                            self.outcomes.append(outcome)
                        else:
                            self._finish(outcome, done)

    def _finish(self, outcome: Outcome, done: list[int]) -> None:
        outcome.ended = outcome.ended or time.time()
        self.outcomes.append(outcome)
        self.made += 1
        done[0] += 1
        if outcome.kind == "session" and not outcome.ok:
            self._retry_step = True  # the next call retries the step, from the last good handle

    def _next_kind(self) -> str:
        if self._retry_step:
            self._retry_step = False
            return "session"
        return KINDS[(self.index + self.made) % len(KINDS)]

    async def _call(self, client: Client, outcome: Outcome) -> None:
        a, b = self._random.getrandbits(200), self._random.getrandbits(120)
        try:
            if outcome.kind == "plain":
                code = "(BigInt(input.a) * BigInt(input.b)).toString()"
                result = await client.call_tool("execute_js", {"code": code, "input": {"a": str(a), "b": str(b)}})
                self._check(outcome, result, lambda value: value.get("result") == str(a * b))
            elif outcome.kind == "add":
                result = await client.call_tool("add", {"a": str(a), "b": str(b)})
                self._check(outcome, result, lambda value: value.get("result") == str(a + b))
            else:
                session = self.handle or f"load-{self.index}"
                result = await client.call_tool("execute_js", {"code": SESSION_STEP, "session": session})
                expected = self.steps + 1
                if self._check(outcome, result, lambda value: value.get("result") == expected):
                    assert result.structured_content is not None
                    self.steps, self.handle = expected, result.structured_content["session"]["handle"]
        except MCPError as exc:  # a JSON-RPC error: HAProxy's 502 for a replica that died, a stream cut short
            outcome.ok, outcome.detail = False, f"{type(exc).__name__}: {exc}"[:300]

    def _check(self, outcome: Outcome, result: types.CallToolResult, right: Any) -> bool:
        """Whether the call answered, and rightly; an answer that is not an error and is not right is wrong."""
        text = "\n".join(getattr(block, "text", "") for block in result.content)
        if result.is_error or result.structured_content is None:
            outcome.ok, outcome.detail = False, text[:300]
            return False
        if not right(result.structured_content):
            self.wrong.append(f"{outcome.id} ({outcome.kind}): {text[:300]}")
            outcome.ok, outcome.detail = False, "wrong answer"
            return False
        outcome.ok = True
        return True


def _leaves(exc: BaseException) -> str:
    """What an exception group holds, as one line: the errors that ended the connection."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_leaves(inner) for inner in exc.exceptions)
    return f"{type(exc).__name__}: {exc}"[:300]
