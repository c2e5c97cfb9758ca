"""Section 24: what keeping a run's journal costs, the same calls recorded and not recorded, in one run.

On 2026-07-28 a code-mode run is journaled (its seeds, clock readings and upstream answers kept, so that it can
pause for consent and be resumed anywhere) exactly when the client can answer a question, that is when it offers
elicitation. So two sandbox-servers started alike, with the records test server upstream, and their two clients of
the same revision, which differ only in that, make the same calls in interleaved rounds: a 10-call code-mode run
(journaled against not) and, as a control, a plain ``1+1`` that neither journals. The ratio of the first pair is the
recording's cost; the control's says how far the two clients differ when nothing is recorded.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client

from benchmarks.code_mode import TOOL, sequential_code, write_upstream_config
from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.stdio_server import CallFailed, server_parameters

__all__ = ["CALLS", "measure"]

CALLS = 10
"""Upstream calls in the code-mode run."""


async def _accept(context: Any, params: Any) -> types.ElicitResult:
    """The user's answer, were one asked for (none is: the records server's tools need no consent)."""
    return types.ElicitResult(action="accept", content={"allow": True})


@asynccontextmanager
async def _clients() -> AsyncIterator[tuple[Client, Client]]:
    """Two 2026-07-28 clients, each of its own sandbox-server with the records server upstream: one that offers
    elicitation (its code-mode runs are journaled) and one that does not."""
    with tempfile.TemporaryDirectory(prefix="sandbox-bench-recording-") as directory:
        config = write_upstream_config(Path(directory))
        parameters = server_parameters(SANDBOX_UPSTREAM=str(config))
        async with AsyncExitStack() as stack:
            asking = await stack.enter_async_context(Client(parameters, mode="auto", elicitation_callback=_accept))
            plain = await stack.enter_async_context(Client(parameters, mode="auto"))
            yield asking, plain


async def _timed(client: Client, tool: str, code: str, expected: Any) -> float:
    started = time.perf_counter()
    result = await client.call_tool(tool, {"code": code})
    elapsed = (time.perf_counter() - started) * 1000
    outcome = dict(result.structured_content or {})
    if result.is_error or outcome.get("result") != expected:
        raise CallFailed(f"{tool} failed or answered wrong: {str(outcome)[:300]}")
    return elapsed


async def measure(plan: Plan, progress: Progress) -> Section:
    """Section 24."""
    progress.section("recording")
    section = Section("recording", "24. The journal's cost: code-mode runs recorded for replay against unrecorded")
    code, expected = sequential_code(CALLS), CALLS * (CALLS + 1) // 2
    cases = (
        ("codemode", f"{CALLS} awaited upstream calls in one execute_js_with_tools run", TOOL, code, expected),
        ("trivial", "execute_js `1+1` (never journaled: the control)", "execute_js", "1+1", 2),
    )
    samples: dict[str, list[float]] = {f"{key}.{side}": [] for key, *_ in cases for side in ("recorded", "plain")}
    rounds = max(10, plan.latency_iterations // 5)
    bar = progress.bar(f"recording: {len(cases)} kinds x{rounds}, interleaved", plan.warmup + rounds)
    async with _clients() as (asking, plain):
        for i in range(plan.warmup + rounds):
            for key, _, tool, snippet, answer in cases:
                order = (("recorded", asking), ("plain", plain))
                for side, client in order if i % 2 == 0 else reversed(order):
                    elapsed = await _timed(client, tool, snippet, answer)
                    if i >= plan.warmup:
                        samples[f"{key}.{side}"].append(elapsed)
            bar.advance()
    bar.close()
    for key, label, *_ in cases:
        recorded = "journaled" if key == "codemode" else "a client that offers elicitation"
        plain_label = "not journaled" if key == "codemode" else "a client that does not"
        section.rows.append(Row(f"{key}.recorded", f"{label}: {recorded}", "ms", samples[f"{key}.recorded"]))
        section.rows.append(Row(f"{key}.plain", f"{label}: {plain_label}", "ms", samples[f"{key}.plain"]))
        section.compare(f"{key}.recorded", f"{key}.plain", short=plain_label)
    section.notes.append(
        "Both clients speak 2026-07-28, each to a server of its own started alike; only the first offers "
        "elicitation, which is what makes a code-mode run pausable and so journaled. Medians of interleaved rounds, "
        "the order of the two clients alternating."
    )
    return section
