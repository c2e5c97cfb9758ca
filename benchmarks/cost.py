"""Section 9: the CPU a call costs the server and its workers, against the floor of a raw mini-racer cycle.

Derived from rows of sections 2 and 5 of the same run, nothing is measured here: the ratio says how far the
server is from the least a fresh isolate per call can cost, whatever the machine.
"""

from __future__ import annotations

from benchmarks.model import Row, Section

__all__ = ["burst_floor", "derive", "server_and_workers_ms"]


def server_and_workers_ms(throughput: Section) -> float | None:
    """CPU per call of the server process and its workers together, from section 5, if it was measured."""
    server, workers = throughput.row("cpu.server"), throughput.row("cpu.workers")
    if server is None or workers is None:
        return None
    return server.median + workers.median


def burst_floor(throughput: Section) -> Row | None:
    """The raw mini-racer cycle timed around the throughput burst (section 5), if it was."""
    return throughput.row("floor.cpu")


def _copy(row: Row, key: str, label: str) -> Row:
    return Row(key, label, row.unit, list(row.samples), note=row.note)


def derive(sections: list[Section]) -> Section:
    """The CPU comparison from the sections measured so far; rows are missing where their source was."""
    by_key = {section.key: section for section in sections}
    section = Section("cost", "9. CPU per call against the raw mini-racer floor (from sections 2 and 5)")
    cycle, throughput = by_key.get("cycle"), by_key.get("throughput")
    floor = cycle.row("floor.cpu") if cycle else None
    stages = cycle.row("stages.cpu") if cycle else None
    if floor is not None:
        section.rows.append(_copy(floor, "floor", "raw mini-racer cycle (`1+1`), in process (§2): CPU"))
    near = burst_floor(throughput) if throughput else None
    if near is not None:
        section.rows.append(_copy(near, "floor_burst", "raw mini-racer cycle, timed around the burst (§5): CPU"))
    if stages is not None:
        section.rows.append(_copy(stages, "worker_cycle", "the worker's cycle for `1+1`, in process: CPU"))
    total = server_and_workers_ms(throughput) if throughput else None
    workers = throughput.row("cpu.workers") if throughput else None
    every = throughput.row("cpu.total") if throughput else None
    if total is not None and workers is not None:
        in_flight = every.note.split(";")[0] if every is not None else ""
        section.rows.append(
            Row("server_workers", "server + workers per `1+1` call over stdio: CPU", "ms", [total], note=in_flight)
        )
        section.rows.append(_copy(workers, "workers", "of which the workers"))
    section.compare("worker_cycle", "floor", short="raw floor (§2)")
    for key in ("server_workers", "workers"):
        if near is not None:
            section.compare(key, "floor_burst", short="raw floor (§5)")
        else:
            section.compare(key, "floor", short="raw floor (§2)")
    section.notes.append(
        "Ratios of medians taken in this run: the server's and workers' CPU from /proc over the throughput burst "
        "with the most calls in flight, against the raw cycle timed just before and after that burst (the speed "
        "of a shared machine drifts between sections); the worker's cycle against the raw cycle timed beside it "
        "in section 2. Both from `time.process_time` in this process."
    )
    return section
