"""The report: Markdown for people (stdout) and JSON with every raw sample (``--json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.model import Row, Section, Target
from benchmarks.plan import Plan

__all__ = ["markdown", "target_lines", "write_json"]


def _number(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def _cells(row: Row) -> list[str]:
    summary = row.summary
    p95 = _number(summary.p95) if summary.n > 1 else "-"
    ratio = f"{row.ratio:.2f}x" if row.ratio is not None else ""
    return [
        row.label,
        str(summary.n),
        f"{_number(summary.median)} {row.unit}",
        f"{p95} {row.unit}" if summary.n > 1 else p95,
        ratio,
        row.baseline or "",
        row.note,
    ]


def _table(section: Section) -> list[str]:
    lines = [f"## {section.title}", ""]
    if section.rows:
        lines.append("| measurement | n | median | p95 | ratio | relative to | note |")
        lines.append("|---|---:|---:|---:|---:|---|---|")
        for row in section.rows:
            cells = [cell.replace("|", "\\|") for cell in _cells(row)]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines.extend(f"- {note}" for note in section.notes)
    if section.notes:
        lines.append("")
    return lines


def target_lines(targets: list[Target]) -> list[str]:
    """One ``PASS``/``MISS``/``SKIP`` line per target."""
    lines = []
    for target in targets:
        verdict = "SKIP" if target.passed is None else "PASS" if target.passed else "MISS"
        lines.append(f"{verdict} {target.goal}: {target.measured}")
    return lines


def markdown(machine: dict[str, str], plan: Plan, sections: list[Section], targets: list[Target]) -> str:
    """The whole report as Markdown."""
    lines = ["# sandbox-server benchmarks", ""]
    lines.append("| machine | |")
    lines.append("|---|---|")
    lines.extend(f"| {key} | {value} |" for key, value in machine.items())
    lines.append(f"| plan | {plan.name} (warm-up {plan.warmup}) |")
    lines.append("")
    for section in sections:
        lines.extend(_table(section))
    if targets:  # none when the run measured nothing a target is judged on
        lines.append("## Targets")
        lines.append("")
        lines.append("```")
        lines.extend(target_lines(targets))
        lines.append("```")
    return "\n".join(lines).rstrip("\n") + "\n"


def _row_json(row: Row) -> dict[str, Any]:
    summary = row.summary
    return {
        "key": row.key,
        "label": row.label,
        "unit": row.unit,
        "n": summary.n,
        "median": summary.median,
        "p95": summary.p95,
        "min": summary.minimum,
        "max": summary.maximum,
        "ratio": row.ratio,
        "baseline": row.baseline,
        "note": row.note,
        "samples": row.samples,
    }


def write_json(
    path: Path,
    machine: dict[str, str],
    plan: Plan,
    sections: list[Section],
    targets: list[Target],
    *,
    studies: dict[str, Any] | None = None,
) -> None:
    """Write every number of the run to ``path`` (with the figures of the studies that ran, by name)."""
    document = {
        "machine": machine,
        "plan": plan.to_json(),
        "sections": [
            {"key": s.key, "title": s.title, "notes": s.notes, "rows": [_row_json(r) for r in s.rows]} for s in sections
        ],
        "targets": [{"name": t.name, "goal": t.goal, "measured": t.measured, "passed": t.passed} for t in targets],
    }
    if studies:
        document["studies"] = studies
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
