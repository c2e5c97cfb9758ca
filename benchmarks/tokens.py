"""Section 14: the tokens that pass through the model on one multi-step task, tool by tool and in one code-mode call.

The task: list the 200 records, fetch the details of the 20 open ones with the largest amounts, report their total
amount and names. Both transcripts are made of real texts from this run: the records server's own answers to a
direct client (one by one), and sandbox-server's answers to ``execute_js_with_tools`` (code mode). What the model
writes is modelled: each tool call as the JSON of its name and arguments, and the same final answer in both cases.
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types

from benchmarks.code_mode import TOOL, CodeModeServers, text_of
from benchmarks.model import Row, Section
from benchmarks.progress import Progress

__all__ = [
    "DESCRIBE",
    "ENCODINGS",
    "TASK",
    "Transcript",
    "answer",
    "call_text",
    "encoding",
    "measure",
    "top_open",
    "visible",
]

TOP = 20
ENCODINGS = ("o200k_base", "cl100k_base")
"""The first one the installed ``bpe-openai`` carries is used."""
DESCRIBE = "(await tools.$describe('records.list_records')) + '\\n' + (await tools.$describe('records.get_record'))"
"""A first code-mode call for the signatures of the two tools, which a model needs only when the description lists
tool names without signatures (a catalogue past ``SIGNATURES_BUDGET_CHARS``): counted apart, not in the total."""
TASK = f"""\
const {{ records }} = await tools.records.list_records({{ limit: 200 }});
const top = records.filter((r) => r.status === 'open').sort((a, b) => b.amount - a.amount).slice(0, {TOP});
const details = await Promise.all(top.map((r) => tools.records.get_record({{ id: r.id }})));
const total = details.reduce((sum, d) => sum + d.record.amount, 0);
({{ total: Math.round(total * 100) / 100, names: details.map((d) => d.record.name) }})"""


def encoding() -> tuple[str, Callable[[str], list[int]]] | None:
    """The tokenizer's name and its ``encode``, or None when ``bpe-openai`` is not installed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # it loads its tables with an old importlib call
        try:
            import bpe_openai
        except ImportError:
            return None
        for name in ENCODINGS:
            try:
                return name, bpe_openai.get_encoding(name).encode
            except bpe_openai.errors.UnsupportedModelError:
                continue
    return None


def visible(tool: types.Tool) -> str:
    """What a client shows the model of one tool (name, title, description, input schema), as compact JSON."""
    listed: dict[str, Any] = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
    shown = {key: listed[key] for key in ("name", "title", "description", "inputSchema") if key in listed}
    return json.dumps(shown, separators=(",", ":"), ensure_ascii=False)


def call_text(name: str, arguments: dict[str, Any]) -> str:
    """A tool call as the model writes it: its name and arguments as JSON (modelled)."""
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)


def top_open(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The task's choice, as the model would make it reading the list: the open records with the largest amounts."""
    return sorted((r for r in records if r["status"] == "open"), key=lambda r: r["amount"], reverse=True)[:TOP]


def answer(total: float, names: list[str]) -> str:
    """The final answer the model writes (modelled, the same words in both transcripts)."""
    return f"The {len(names)} open records with the largest amounts total {total:.2f}. They are: {', '.join(names)}."


@dataclass(slots=True)
class Transcript:
    """What passes through the model, in order: ``(part, read or write, text)``.

    Each text the model writes right after one it read starts a turn; texts written one right after another
    (parallel tool calls) belong to the same turn.
    """

    parts: list[tuple[str, str, str]]

    def add(self, part: str, direction: str, text: str) -> None:
        self.parts.append((part, direction, text))

    def tokens(self, count: Callable[[str], int]) -> dict[str, int]:
        """Tokens per part, each text counted once."""
        totals: dict[str, int] = {}
        for part, _direction, text in self.parts:
            totals[part] = totals.get(part, 0) + count(text)
        return totals

    def _turns(self) -> list[int]:
        """The index of the part that starts each turn."""
        directions = [direction for _part, direction, _text in self.parts]
        return [i for i, now in enumerate(directions) if now == "write" and (i == 0 or directions[i - 1] == "read")]

    def turns(self) -> int:
        return len(self._turns())

    def context(self, count: Callable[[str], int]) -> int:
        """Tokens the model reads over all its turns: each turn re-reads everything before it."""
        sizes = [count(text) for _part, _direction, text in self.parts]
        return sum(sum(sizes[:start]) for start in self._turns())

    def batched(self, first: int) -> Transcript:
        """The same texts with the calls from the ``first``-th on (all but the final answer) written in one turn."""
        writes = [i for i, (_part, direction, _text) in enumerate(self.parts) if direction == "write"][first:-1]
        start, end = writes[0], writes[-1] + 2
        middle = self.parts[start:end]
        reordered = [part for part in middle if part[1] == "write"] + [part for part in middle if part[1] == "read"]
        return Transcript(self.parts[:start] + reordered + self.parts[end:])


async def _tools(servers: CodeModeServers) -> tuple[dict[str, types.Tool], types.Tool]:
    listed: dict[str, types.Tool] = {}
    cursor: str | None = None
    while True:  # the records server lists its tools five a page
        page = await servers.direct.list_tools(cursor=cursor)
        listed.update((tool.name, tool) for tool in page.tools)
        if not page.next_cursor:
            break
        cursor = page.next_cursor
    code_tool = next(tool for tool in (await servers.sandbox.client.list_tools()).tools if tool.name == TOOL)
    return listed, code_tool


async def _one_by_one(servers: CodeModeServers, listed: dict[str, types.Tool]) -> tuple[Transcript, float, list[str]]:
    transcript = Transcript([])
    for name in ("list_records", "get_record"):
        transcript.add("tool listings read", "read", visible(listed[name]))
    arguments: dict[str, Any] = {"limit": 200}
    transcript.add("tool calls written", "write", call_text("list_records", arguments))
    result = await servers.call_direct("list_records", arguments)
    transcript.add("tool results read", "read", text_of(result))
    chosen = top_open(json.loads(text_of(result))["records"])
    total, names = 0.0, []
    for record in chosen:
        arguments = {"id": record["id"]}
        transcript.add("tool calls written", "write", call_text("get_record", arguments))
        result = await servers.call_direct("get_record", arguments)
        transcript.add("tool results read", "read", text_of(result))
        detail = json.loads(text_of(result))["record"]
        total += detail["amount"]
        names.append(detail["name"])
    total = round(total, 2)
    transcript.add("final answer written", "write", answer(total, names))
    return transcript, total, names


async def _code_mode(
    servers: CodeModeServers, code_tool: types.Tool, describe: bool = False
) -> tuple[Transcript, dict[str, Any], int]:
    transcript = Transcript([])
    transcript.add(f"{TOOL} listing read", "read", visible(code_tool))
    steps = (("`$describe` of the two tools", DESCRIBE),) if describe else ()
    for part, code in (*steps, ("the task's code", TASK)):
        transcript.add(f"{part}: call written", "write", call_text(TOOL, {"code": code}))
        result = await servers.sandbox.client.call_tool(TOOL, {"code": code})
        if result.is_error or result.structured_content is None or not result.structured_content.get("ok"):
            raise RuntimeError(f"{TOOL} failed on {part}: {text_of(result)[:500]}")
        transcript.add(f"{part}: result read", "read", text_of(result))
    value = result.structured_content["result"]
    transcript.add("final answer written", "write", answer(value["total"], value["names"]))
    return transcript, value, len(result.structured_content.get("toolCalls", []))


def _context_row(key: str, title: str, transcript: Transcript, count: Callable[[str], int], how: str) -> Row:
    turns = transcript.turns()
    return Row(
        key,
        f"{title}: context read over {turns} turns{how}",
        "tokens",
        [float(transcript.context(count))],
        note="modelled: each turn re-reads the transcript so far, no prompt caching",
    )


def _rows(section: Section, prefix: str, title: str, transcript: Transcript, count: Callable[[str], int]) -> None:
    for part, tokens in transcript.tokens(count).items():
        key = re.sub(r"[^a-z0-9]+", "_", part.lower()).strip("_")
        section.rows.append(Row(f"{prefix}_{key}", f"{title}: {part}", "tokens", [float(tokens)]))
    total = sum(count(text) for _part, _direction, text in transcript.parts)
    section.rows.append(Row(f"{prefix}_total", f"{title}: total", "tokens", [float(total)]))


async def measure(progress: Progress, servers: CodeModeServers) -> Section:
    """Section 14, on the connections of sections 12 and 13."""
    progress.section("code mode: tokens of a multi-step task")
    section = Section("code_mode_tokens", "14. Code mode: tokens through the model on a multi-step task")
    found = encoding()
    if found is None:
        section.notes.append("skipped: no tokenizer; install bpe-openai (`pip install -e '.[dev]'`).")
        return section
    name, encode = found
    count: Callable[[str], int] = lambda text: len(encode(text))  # noqa: E731
    listed, code_tool = await _tools(servers)
    direct, total, names = await _one_by_one(servers, listed)
    code, value, code_calls = await _code_mode(servers, code_tool)
    described, _, _ = await _code_mode(servers, code_tool, describe=True)
    every_tool = sum(count(visible(tool)) for tool in listed.values())
    _rows(section, "one_by_one", "one by one", direct, count)
    listings = direct.tokens(count)["tool listings read"]
    desktop = sum(count(text) for _part, _direction, text in direct.parts) - listings + every_tool
    section.rows.append(
        Row(
            "one_by_one_desktop_total",
            "one by one, every records tool listed (a desktop client): total",
            "tokens",
            [float(desktop)],
            note=f"{every_tool} listing tokens instead of {listings}",
        )
    )
    _rows(section, "code_mode", "code mode", code, count)
    code_total = sum(count(text) for _part, _direction, text in code.parts)
    section.rows.append(Row("code_mode_desktop", "code mode against the desktop listing: total", "tokens",
                            [float(code_total)]))  # fmt: skip
    described_total = sum(count(text) for _part, _direction, text in described.parts)
    section.rows.append(
        Row(
            "code_mode_described_total",
            "code mode with a `$describe` call first: total",
            "tokens",
            [float(described_total)],
            note="what a catalogue listed by names only costs this task",
        )
    )
    section.rows.append(_context_row("one_by_one_context", "one by one", direct, count, ", one call a turn"))
    section.rows.append(
        _context_row("one_by_one_batched", "one by one", direct.batched(1), count, f", the {TOP} get_record together")
    )
    section.rows.append(_context_row("code_mode_context", "code mode", code, count, ""))
    section.compare("code_mode_total", "one_by_one_total", short="one by one: total")
    section.compare("code_mode_desktop", "one_by_one_desktop_total", short="one by one, desktop listing")
    section.compare("code_mode_described_total", "one_by_one_total", short="one by one: total")
    section.compare("one_by_one_batched", "one_by_one_context", short="one call a turn")
    section.compare("code_mode_context", "one_by_one_batched", short=f"one by one, {TOP} get_record together")
    for key in ("code_mode_total", "code_mode_desktop", "code_mode_described_total", "code_mode_context"):
        row = section.row(key)
        if row is not None and row.ratio is not None:
            row.note = f"{(1 - row.ratio) * 100:.1f}% fewer" + (f"; {row.note}" if row.note else "")
    agree = math.isclose(value["total"], total, abs_tol=0.005) and value["names"] == names
    listing = next(text for part, _direction, text in direct.parts if part == "tool results read")
    results = direct.tokens(count)["tool results read"]
    section.notes.extend(
        [
            f"Tokens counted with `{name}` (bpe-openai). The task: list 200 records, fetch the details of the {TOP} "
            "open ones with the largest amounts, report their total amount and names.",
            f"Answers agree: {'yes' if agree else 'NO'} (code mode: total {value['total']:.2f}, {len(value['names'])} "
            f"names; one by one, summed from the {len(names)} get_record results: {total:.2f}). Code mode's one call "
            f"made {code_calls} upstream calls, as many as the one-by-one transcript.",
            "Measured: every text the model reads (tool listings, tool results as the result's text content, which is "
            "what a client shows; the same value's structuredContent is not counted again). Modelled: what it writes "
            "(each call as the JSON of its name and arguments, the final answer in the same words in both). Not "
            "counted in either: the system prompt and the user's request, the same in both. Both make the same "
            f"upstream calls (`list_records({{limit: 200}})`, then {TOP} `get_record`); `list_records`' result alone "
            f"is {count(listing):,} of the one-by-one results' {results:,} tokens.",
            f"One by one counts the listings of the two records tools it calls; the records test server lists "
            f"{len(listed)} tools ({every_tool} tokens), which a client connected to it would show the model. Code "
            f"mode counts {TOOL}'s listing once: it carries every records tool's compact signature (the catalogue "
            "is within `SIGNATURES_BUDGET_CHARS`), so the task's code is the first call; the row with a `$describe` "
            "call first is what a catalogue listed by names only would cost.",
        ]
    )
    if not agree:
        raise RuntimeError(f"the answers differ: code mode {value}, one by one {total} {names}")
    return section
