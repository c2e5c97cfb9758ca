"""Section 19: consent on the current revision (2026-07-28): what a pause and resume costs, against the same call
with no consent, and against consent asked within the call on the handshake revision (2025-11-25).

One sandbox-server over stdio with the repository's test servers upstream (``tests/upstream/servers``): ``records``
(read-only), ``writes`` under ``"sideEffects": "confirm"`` and ``free``, the same writes server under ``"allow"``.
The code makes N journaled ``records.get_record`` calls, then one ``touch``: on ``free`` it runs at once; on
``writes`` the run pauses, the client (the SDK's ``Client.call_tool``, answering through its elicitation callback)
calls again with the answer, and the run is done again from its start with those N calls answered from the journal.
The difference is what the pause and the resume cost; its growth with N is what one journaled call costs to replay.

``python -m benchmarks --only consent [--quick]`` runs it alone.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.stdio_server import CallFailed, server_parameters

__all__ = ["JOURNALED", "measure"]

ROOT = Path(__file__).resolve().parents[1]
JOURNALED = (0, 10, 40)
RECORDED_CALLS = 10
"""Upstream calls of the run measured journaled and not, for what recording costs."""
"""Upstream calls made before the call that needs consent, replayed from the journal when the run resumes."""
TOOL = "execute_js_with_tools"


def code(calls: int, server: str) -> str:
    return (
        f"let sum = 0;\nfor (let i = 1; i <= {calls}; i++) {{\n"
        "  sum += (await tools.records.get_record({ id: i })).record.id;\n}\n"
        f"await tools.{server}.touch();\nsum"
    )


def _entry(module: str, **policy: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": ["-m", f"tests.upstream.servers.{module}"], "cwd": str(ROOT), **policy}


class _Accept:
    """Accepts every request for consent, counting them."""

    def __init__(self) -> None:
        self.asked = 0

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked += 1
        return types.ElicitResult(action="accept", content={"allow": True})


@asynccontextmanager
async def _client(config: Path, mode: str, user: _Accept | None) -> AsyncIterator[Client]:
    parameters = server_parameters(SANDBOX_UPSTREAM=str(config), SANDBOX_WORKERS="2")
    async with Client(parameters, mode=mode, elicitation_callback=user) as client:  # type: ignore[arg-type]
        yield client


async def _timed(client: Client, source: str, calls: int) -> float:
    started = time.perf_counter()
    result = await client.call_tool(TOOL, {"code": source, "timeout_ms": 20000})
    elapsed = (time.perf_counter() - started) * 1000
    structured = result.structured_content or {}
    if result.is_error or structured.get("result") != calls * (calls + 1) // 2:
        text = " ".join(getattr(block, "text", "") for block in result.content)
        raise CallFailed(f"{TOOL} did not run cleanly: {text[:500]} {json.dumps(structured)[:300]}")
    return elapsed


async def measure(plan: Plan, progress: Progress) -> Section:
    """Section 19, each kind of call interleaved iteration by iteration on the same two servers."""
    progress.section("consent: pause and resume")
    section = Section("consent", "19. Consent on 2026-07-28: a run paused for the answer, resumed from its journal")
    if not (ROOT / "tests" / "upstream" / "servers" / "writes.py").is_file():
        section.notes.append("skipped: the test servers are not in this checkout (run from a source checkout)")
        return section
    warmup, iterations = max(1, plan.warmup // 4), max(3, plan.latency_iterations // 25)
    samples: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-consent-") as directory:
        config = Path(directory) / "upstream.json"
        servers = {
            "records": _entry("records"),
            "writes": _entry("writes", sideEffects="confirm"),
            "free": _entry("writes", sideEffects="allow"),
        }
        config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
        modern_user, legacy_user = _Accept(), _Accept()
        async with (
            _client(config, "auto", modern_user) as modern,
            _client(config, "legacy", legacy_user) as legacy,
            _client(config, "auto", None) as unasking,
        ):
            bar = progress.bar("consent calls", (warmup + iterations) * (len(JOURNALED) + 1))
            for i in range(warmup + iterations):
                for calls in JOURNALED:
                    measured = {
                        f"free_{calls}": await _timed(modern, code(calls, "free"), calls),
                        f"paused_{calls}": await _timed(modern, code(calls, "writes"), calls),
                        f"asked_{calls}": await _timed(legacy, code(calls, "writes"), calls),
                    }
                    if i >= warmup:
                        for key, value in measured.items():
                            samples.setdefault(key, []).append(value)
                    bar.advance()
                # The same ten calls, journaled (a client that can be asked: the run may pause) and not (one that
                # cannot: nothing could resume it, so nothing is recorded).
                recorded = await _timed(modern, code(RECORDED_CALLS, "free"), RECORDED_CALLS)
                unrecorded = await _timed(unasking, code(RECORDED_CALLS, "free"), RECORDED_CALLS)
                if i >= warmup:
                    samples.setdefault("recorded", []).append(recorded)
                    samples.setdefault("unrecorded", []).append(unrecorded)
                bar.advance()
            bar.close()
        if modern_user.asked != legacy_user.asked:
            raise CallFailed(f"the two clients were asked {modern_user.asked} and {legacy_user.asked} times")
    for calls in JOURNALED:
        before = f"{calls} upstream calls, then" if calls else "one"
        section.rows.append(
            Row(
                f"free_{calls}",
                f"{before} `touch` under allow (no consent), 2026-07-28",
                "ms",
                samples[f"free_{calls}"],
            )
        )
        section.rows.append(
            Row(
                f"paused_{calls}",
                f"the same under confirm, 2026-07-28: paused, answered, resumed with {calls} journaled calls",
                "ms",
                samples[f"paused_{calls}"],
            )
        )
        section.rows.append(
            Row(
                f"asked_{calls}",
                "the same under confirm, 2025-11-25: asked within the call",
                "ms",
                samples[f"asked_{calls}"],
            )
        )
        section.compare(f"paused_{calls}", f"free_{calls}", short="no consent")
        section.compare(f"asked_{calls}", f"free_{calls}", short="no consent")
    first, last = JOURNALED[0], JOURNALED[-1]
    pause = [p - f for p, f in zip(samples[f"paused_{first}"], samples[f"free_{first}"], strict=True)]
    extra_first = [p - f for p, f in zip(samples[f"paused_{first}"], samples[f"free_{first}"], strict=True)]
    extra_last = [p - f for p, f in zip(samples[f"paused_{last}"], samples[f"free_{last}"], strict=True)]
    per_call = [(b - a) / (last - first) for a, b in zip(extra_first, extra_last, strict=True)]
    section.rows.append(Row("round_trip", "a pause and resume, over the same call without consent", "ms", pause))
    section.rows.append(
        Row(
            "per_journaled_call",
            f"each journaled call replayed on resume: (extra at {last} - extra at {first}) / {last - first}",
            "ms",
            per_call,
            note="computed per iteration",
        )
    )
    section.rows.append(
        Row(
            "unrecorded",
            f"{RECORDED_CALLS} upstream calls, then `touch` under allow, not journaled",
            "ms",
            samples["unrecorded"],
        )
    )
    section.rows.append(
        Row(
            "recorded",
            "the same, journaled (the client can be asked, so the run keeps what it needs to resume)",
            "ms",
            samples["recorded"],
        )
    )
    section.compare("recorded", "unrecorded", short="not journaled")
    section.notes.append(
        "A plain execute_js call keeps no journal (only a code-mode run that may pause, and a session's cell): its "
        "cost is unchanged by construction."
    )
    section.notes.append(
        "The client answers at once (no user waits): the rows are the server's and the protocol's share. The pause "
        "runs the code to the call, stops it and answers input_required; the resume runs it again from its start, "
        "answering the earlier calls from the journal instead of calling the upstream server."
    )
    return section
