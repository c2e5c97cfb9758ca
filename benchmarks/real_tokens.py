"""The study ``real_tokens``: the tokens five multi-step tasks pass through the model against real MCP servers, one
tool call at a time against one ``execute_js_with_tools`` call, counted from the real texts of the run.

Four ways per task (:mod:`benchmarks.real_tasks`), every text counted once with :func:`benchmarks.tokens.encoding`:

- direct, per-task listing: the client lists the tools of the servers the task uses, the model makes its calls one by
  one and reads each result;
- direct, desktop listing: the same calls, with every tool of the seven configured servers listed, as a desktop
  client shows them;
- code mode, the task's servers: a sandbox-server configured with those servers; its description lists their
  compact signatures, the model writes one program;
- code mode, all seven servers, both listing styles: a sandbox-server configured with every server whose description
  lists every compact signature, and one whose description lists names only, where the model spends a
  ``$describe`` turn first; ``SIGNATURES_BUDGET_CHARS`` picks one of the two for this catalogue.

This module holds the counting, the answer check and the report; :mod:`benchmarks.real_run` drives the servers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.real_tasks import Task, comparable
from benchmarks.tokens import Transcript

__all__ = [
    "AnswersDiffer",
    "Tally",
    "check_answers",
    "describe_code",
    "lists_signatures",
    "markdown",
    "saving",
    "tally",
]

LISTINGS = "tool listings read"
"""The part of a direct transcript that a desktop listing replaces."""


class AnswersDiffer(RuntimeError):
    """Direct calls and code mode reached different values for one task."""


@dataclass(slots=True)
class Tally:
    """The tokens of one task, each way, and what they are made of."""

    key: str
    direct: int
    desktop: int
    code: int
    signatures: int
    """Code mode with the seven servers' signatures in the description."""
    names: int
    """Code mode with the seven servers listed by name, a ``$describe`` turn first."""
    parts: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per way (``direct``, ``code``, ``signatures``, ``names``), the tokens of each part of its transcript."""
    turns: dict[str, int] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    """Upstream calls made each way."""
    default_names: bool = False
    """Whether ``SIGNATURES_BUDGET_CHARS`` makes the seven servers' description list names."""

    @property
    def code_all(self) -> int:
        """Code mode with all seven servers, in the style the budget picks."""
        return self.names if self.default_names else self.signatures

    @property
    def saved(self) -> float:
        return saving(self.code, self.direct)

    @property
    def saved_desktop(self) -> float:
        return saving(self.code_all, self.desktop)


def saving(code: int, direct: int) -> float:
    """The share of ``direct``'s tokens that code mode does not spend, in percent."""
    return (1 - code / direct) * 100 if direct else 0.0


def _total(transcript: Transcript, count: Callable[[str], int]) -> int:
    return sum(count(text) for _part, _direction, text in transcript.parts)


def tally(
    key: str,
    direct: Transcript,
    desktop_listing: int,
    code: Transcript,
    signatures: Transcript,
    names: Transcript,
    count: Callable[[str], int],
) -> Tally:
    """Count one task's transcripts; the desktop total is the direct one with ``desktop_listing`` tokens of
    listings in place of the per-task listing."""
    direct_parts = direct.tokens(count)
    direct_total = _total(direct, count)
    return Tally(
        key,
        direct=direct_total,
        desktop=direct_total - direct_parts.get(LISTINGS, 0) + desktop_listing,
        code=_total(code, count),
        signatures=_total(signatures, count),
        names=_total(names, count),
        parts={
            "direct": direct_parts,
            "code": code.tokens(count),
            "signatures": signatures.tokens(count),
            "names": names.tokens(count),
        },
        turns={
            "direct": direct.turns(),
            "code": code.turns(),
            "signatures": signatures.turns(),
            "names": names.turns(),
        },
    )


def check_answers(task: Task, direct: Any, code: Any) -> None:
    """Raise :class:`AnswersDiffer` unless both ways reached the same value (code mode's read as the task says)."""
    mine, theirs = comparable(direct), comparable(task.value(code))
    if mine != theirs:
        raise AnswersDiffer(f"task {task.key}: direct calls reached {mine[:300]}, code mode {theirs[:300]}")


def lists_signatures(description: str) -> bool:
    """Whether ``execute_js_with_tools``' description lists compact signatures (``  name(args…): Type`` lines)
    rather than names or counts."""
    return any(line.startswith("  ") and "): " in line for line in description.split("\n"))


def describe_code(task: Task) -> str:
    """The program a model writes first when the description lists names only: every tool the task needs."""
    names = ", ".join(f"'{name}'" for name in task.tools)
    return f"(await Promise.all([{names}].map((name) => tools.$describe(name)))).join('\\n')"


def markdown(tallies: list[Tally], tasks: dict[str, Task], encoding: str, notes: list[str]) -> str:
    """The study's report: one row per task and the totals, then each task's parts."""
    lines = [
        "## Code mode against real MCP servers: tokens through the model on five tasks",
        "",
        f"Tokens counted with `{encoding}` (bpe-openai), every text once.",
        "",
        "| task | direct, per-task listing | direct, desktop listing | code mode, the task's servers | saved | "
        "code mode, all seven, signatures | code mode, all seven, names + `$describe` | saved against desktop |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total = Tally(
        "**all five**",
        sum(t.direct for t in tallies),
        sum(t.desktop for t in tallies),
        sum(t.code for t in tallies),
        sum(t.signatures for t in tallies),
        sum(t.names for t in tallies),
        default_names=all(t.default_names for t in tallies),
    )
    for t in [*tallies, total]:
        marks = ("", " (picked)") if t.default_names else (" (picked)", "")
        lines.append(
            f"| {t.key} | {t.direct:,} | {t.desktop:,} | {t.code:,} | {t.saved:.1f}% | {t.signatures:,}{marks[0]} | "
            f"{t.names:,}{marks[1]} | {t.saved_desktop:.1f}% |"
        )
    lines.append("")
    for t in tallies:
        lines.append(f"**{t.key}**: {tasks[t.key].question}")
        lines.append("")
        lines.append("| way | turns | upstream calls | tokens by part |")
        lines.append("|---|---:|---:|---|")
        ways = (
            ("direct", "direct"),
            ("code", "code mode"),
            ("signatures", "code mode, all seven, signatures"),
            ("names", "code mode, all seven, names"),
        )
        for way, label in ways:
            parts = "; ".join(f"{part} {tokens:,}" for part, tokens in t.parts.get(way, {}).items())
            lines.append(f"| {label} | {t.turns.get(way, 0)} | {t.calls.get(way, 0)} | {parts} |")
        lines.append("")
    lines.extend(f"- {note}" for note in notes)
    return "\n".join(lines) + "\n"
