"""Studies: measurements that ``python -m benchmarks`` makes only when ``--only`` names them, each with a report of
its own (Markdown after the sections' report; with ``--json``, its figures under ``studies``).

- ``real_tokens``: the tokens of five multi-step tasks against seven real MCP servers, direct and in code mode
  (:mod:`.real_tokens`; installs the servers from npm and PyPI on first use);
- ``soak``: many mixed calls through one server, watching memory, processes and descriptors (:mod:`.soak`);
- ``source``: what the source analysis before V8 costs each call (:mod:`.source`);
- ``upstream_stops``: how soon upstream servers hear of cancellations, and what retries cost (:mod:`.upstream_stops`);
- ``web_first_use``: what each lazily loaded web module costs on first use, in process (:mod:`.web_first_use`).
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import anyio

from benchmarks import real_run, soak, source, upstream_stops, web_first_use

__all__ = ["STUDIES", "Study", "add_arguments"]


@dataclass(slots=True)
class Study:
    """What one study reports: Markdown, its figures for ``--json``, and whether what it checks went wrong."""

    markdown: str
    figures: dict[str, Any] = field(default_factory=dict)
    failed: bool = False


async def _soak(quick: bool, args: argparse.Namespace) -> Study:
    calls = args.soak_calls if args.soak_calls is not None else 300 if quick else soak.DEFAULT_CALLS
    report = await soak.soak(
        calls, workers=args.soak_workers, concurrency=args.soak_concurrency, progress=soak.progress_line
    )
    return Study(soak.markdown(report), asdict(report), failed=bool(report.wrong))


async def _source(quick: bool, args: argparse.Namespace) -> Study:
    return Study(await anyio.to_thread.run_sync(source.report, quick))


async def _upstream_stops(quick: bool, args: argparse.Namespace) -> Study:
    return Study(await upstream_stops.report(quick) + "\n")


async def _real_tokens(quick: bool, args: argparse.Namespace) -> Study:
    markdown, figures, failed = await real_run.run()
    return Study(markdown, figures, failed=failed)


async def _web_first_use(quick: bool, args: argparse.Namespace) -> Study:
    return Study(await anyio.to_thread.run_sync(web_first_use.report, quick))


STUDIES: dict[str, Callable[[bool, argparse.Namespace], Awaitable[Study]]] = {
    "real_tokens": _real_tokens,
    "soak": _soak,
    "source": _source,
    "upstream_stops": _upstream_stops,
    "web_first_use": _web_first_use,
}
"""Each study by its ``--only`` name: a function of ``--quick`` and the parsed options."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the studies that take any."""
    group = parser.add_argument_group("soak (with --only soak)")
    group.add_argument("--soak-calls", type=int, metavar="N", help=f"calls to make (default {soak.DEFAULT_CALLS}, "
                       "300 with --quick)")  # fmt: skip
    group.add_argument("--soak-workers", type=int, default=soak.DEFAULT_WORKERS, metavar="N",
                       help=f"worker processes of the server (default {soak.DEFAULT_WORKERS})")  # fmt: skip
    group.add_argument("--soak-concurrency", type=int, default=soak.DEFAULT_CONCURRENCY, metavar="N",
                       help=f"calls in flight at once (default {soak.DEFAULT_CONCURRENCY})")  # fmt: skip
