"""``python -m benchmarks [--quick] [--only NAME ...] [--json PATH] [--plot PATH] [--peer NAME=COMMAND]``: measure,
then report.

Without ``--only`` every section of :data:`benchmarks.sections.PARTS` runs, in order. ``--only`` names the parts to
run, and may name the studies of :mod:`benchmarks.studies`, which run only when named. ``--list`` prints the names.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio

from benchmarks import machine, peer_options, studies
from benchmarks.plan import DEFAULT, QUICK
from benchmarks.progress import Progress
from benchmarks.report import markdown, target_lines, write_json
from benchmarks.sections import PARTS, Run, section_count
from benchmarks.targets import judge

__all__ = ["NAMES", "build_parser", "main", "run"]

NAMES = (*(part.name for part in PARTS), *studies.STUDIES)
"""Every name ``--only`` takes: the parts of the default run, in order, then the studies."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure sandbox-server against raw mini-racer, the MCP floor and fresh node processes.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="few iterations (about a minute); every chosen section still runs"
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="run only these sections or studies, in the run's order (see --list for the names)",
    )
    parser.add_argument("--list", action="store_true", help="print the names --only takes, and what each measures")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write every raw number as JSON to PATH")
    parser.add_argument("--plot", type=Path, metavar="PATH", help="write a PNG bar chart of the latencies to PATH")
    peer_options.add_arguments(parser)
    studies.add_arguments(parser)
    return parser


def _names(parser: argparse.ArgumentParser, only: list[str] | None) -> tuple[list[str], list[str]]:
    """The parts and the studies to run; a name that is neither is refused with the names there are."""
    if only is None:
        return [part.name for part in PARTS], []
    unknown = [name for name in only if name not in NAMES]
    if unknown:
        parser.error(f"--only does not know {', '.join(map(repr, unknown))}: it takes {', '.join(NAMES)}")
    return [part.name for part in PARTS if part.name in only], [name for name in studies.STUDIES if name in only]


def _listing() -> str:
    lines = [f"{part.name:<16} {part.about}" for part in PARTS]
    lines += [f"{name:<16} a study, run only when named" for name in studies.STUDIES]
    return "\n".join(lines) + "\n"


def run(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; returns the exit status (1 when a section failed)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.list:
        sys.stdout.write(_listing())
        return 0
    try:
        peers = peer_options.specs_from(args)
    except ValueError as exc:
        parser.error(str(exc))
    parts, chosen = _names(parser, args.only)
    plan = QUICK if args.quick else DEFAULT
    progress = Progress(section_count(parts, len(peers)) + len(chosen))
    facts = machine.describe()
    progress.say(f"{plan.name} run on {facts['cpus']} CPUs, V8 {facts['v8']}, mini-racer {facts['miniRacer']}")
    bench = Run(plan, progress, peers, only=parts)
    results: dict[str, studies.Study] = {}

    async def measure() -> None:
        await bench.measure_all()
        for name in chosen:
            progress.section(f"study: {name}")
            try:
                results[name] = await studies.STUDIES[name](args.quick, args)
            except Exception as exc:  # like a section's: reported, and the run fails
                progress.say(f"{name} failed:\n{traceback.format_exc()}")
                results[name] = studies.Study(
                    f"## {name} (failed)\n\n- failed: {type(exc).__name__}: {exc}\n", failed=True
                )

    anyio.run(measure)
    targets = judge(bench.sections)
    if args.only is not None:
        targets = [target for target in targets if target.passed is not None]  # judged on what ran
    if parts:
        sys.stdout.write(markdown(facts, plan, bench.sections, targets))
    for study in results.values():
        sys.stdout.write(("\n" if parts else "") + study.markdown)
    sys.stdout.flush()
    for line in target_lines(targets):
        progress.say(line)
    if args.json is not None:
        figures: dict[str, Any] = {name: study.figures for name, study in results.items()}
        write_json(args.json, facts, plan, bench.sections, targets, studies=figures)
        progress.say(f"raw numbers written to {args.json}")
    if args.plot is not None:
        from benchmarks.plot import plot

        skipped = plot(args.plot, bench.sections)
        progress.say(skipped or f"chart written to {args.plot}")
    return 1 if bench.failed or any(study.failed for study in results.values()) else 0


def main() -> None:
    sys.exit(run())
