"""``python -m benchmarks [--quick] [--json PATH] [--plot PATH]``: measure, then report."""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks import coldstart, isolates, latency, machine, memory, throughput, work
from benchmarks.model import Section
from benchmarks.plan import DEFAULT, QUICK, Plan
from benchmarks.progress import Progress
from benchmarks.report import markdown, target_lines, write_json
from benchmarks.targets import judge

__all__ = ["main", "run"]

Measure = Callable[[Plan, Progress], Section]

# In-process engine measurements come first, while no server is running; memory comes last so that nothing
# else runs beside the server it watches.
SECTIONS: tuple[tuple[str, Measure], ...] = (
    ("isolates", isolates.measure),
    ("latency", latency.measure),
    ("work", work.measure),
    ("throughput", throughput.measure),
    ("coldstart", coldstart.measure),
    ("memory", memory.measure),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Measure sandbox-server against raw mini-racer, the MCP floor and fresh node processes.",
    )
    parser.add_argument("--quick", action="store_true", help="few iterations (about 20 s); every section still runs")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write every raw number as JSON to PATH")
    parser.add_argument("--plot", type=Path, metavar="PATH", help="write a PNG bar chart of the latencies to PATH")
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; returns the exit status (1 when a section failed)."""
    args = build_parser().parse_args(argv)
    plan = QUICK if args.quick else DEFAULT
    progress = Progress(len(SECTIONS))
    facts = machine.describe()
    progress.say(f"{plan.name} run on {facts['cpus']} CPUs, V8 {facts['v8']}, mini-racer {facts['miniRacer']}")
    sections: list[Section] = []
    failed = False
    for key, measure in SECTIONS:
        try:
            sections.append(measure(plan, progress))
        except Exception as exc:  # a broken section must not hide the others; the run still fails
            failed = True
            progress.say(f"{key} failed:\n{traceback.format_exc()}")
            sections.append(Section(key, f"{key} (failed)", notes=[f"failed: {type(exc).__name__}: {exc}"]))
    targets = judge(sections)
    sys.stdout.write(markdown(facts, plan, sections, targets))
    sys.stdout.flush()
    for line in target_lines(targets):
        progress.say(line)
    if args.json is not None:
        write_json(args.json, facts, plan, sections, targets)
        progress.say(f"raw numbers written to {args.json}")
    if args.plot is not None:
        from benchmarks.plot import plot

        skipped = plot(args.plot, sections)
        progress.say(skipped or f"chart written to {args.plot}")
    return 1 if failed else 0


def main() -> None:
    sys.exit(run())
