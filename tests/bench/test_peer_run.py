"""The peer section measured for real, against a stand-in peer and against sandbox-server itself."""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from pathlib import Path

import anyio
import pytest

from benchmarks import peer
from benchmarks.cli import build_parser
from benchmarks.peer_options import PeerSpec, specs_from
from benchmarks.plan import QUICK
from benchmarks.progress import Progress

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

FAKE_PEER = Path(__file__).with_name("fake_peer.py")
TINY = replace(QUICK, name="tiny", warmup=1, peer_iterations=3, work_iterations=2, cold_starts=1)


def _progress() -> Progress:
    return Progress(1, stream=io.StringIO())


async def test_a_peer_is_measured_side_by_side_with_ratios_and_checked_results() -> None:
    spec = PeerSpec("fake", [sys.executable, str(FAKE_PEER)])
    with anyio.fail_after(120):
        section = await peer.measure(TINY, _progress(), spec)
    for kind, count in (("trivial", 3), ("sum", 2), ("coldstart", 1)):
        theirs, ours = section.row(f"{kind}.peer"), section.row(f"{kind}.ours")
        assert theirs is not None and ours is not None, kind
        assert len(theirs.samples) == count and len(ours.samples) == count
        assert ours.ratio == pytest.approx(ours.median / theirs.median)
        assert ours.baseline == "fake"
    # The same rounds time sandbox-server's warm session call and its add, against the peer's trivial call.
    trivial = section.row("trivial.peer")
    assert trivial is not None
    for key in ("session", "add"):
        row = section.row(f"{key}.ours")
        assert row is not None and len(row.samples) == 3, key
        assert row.ratio == pytest.approx(row.median / trivial.median) and row.baseline == "fake's trivial call"
    # CPU comes in 10 ms clock ticks: over three calls it may well read zero, so only its presence is checked.
    cpu = section.row("cpu.peer")
    assert cpu is not None and len(cpu.samples) == 1 and cpu.samples[0] >= 0
    # Found through tools/list; the built-in Python code was sent because the names say Python (JavaScript would
    # be a syntax error there, and the calls would fail).
    assert any("tool `run_python_code`, code argument `python_code`" in note for note in section.notes)
    assert not any("does not contain" in note for note in section.notes), section.notes


async def test_sandbox_server_itself_can_be_the_peer_named_on_the_command_line() -> None:
    args = build_parser().parse_args(["--peer", f"self={sys.executable} -m sandbox_server"])
    [spec] = specs_from(args)
    with anyio.fail_after(120):
        section = await peer.measure(TINY, _progress(), spec)
    assert any("tool `execute_js`, code argument `code`" in note for note in section.notes)
    assert not any("does not contain" in note for note in section.notes), section.notes
    assert section.row("sum.ours") is not None and section.row("sum.peer") is not None


async def test_a_named_peer_that_cannot_start_fails_its_section() -> None:
    spec = PeerSpec("broken", [sys.executable, "-c", "raise SystemExit(3)"])
    with anyio.fail_after(60), pytest.raises(peer.PeerUnavailable):
        await peer.measure(TINY, _progress(), spec)


async def test_a_found_peer_that_cannot_start_is_skipped_with_a_note() -> None:
    spec = PeerSpec("mcp-run-python", [sys.executable, "-c", "raise SystemExit(3)"], found=True)
    with anyio.fail_after(60):
        section = await peer.measure(TINY, _progress(), spec)
    assert section.rows == []
    assert "could not be measured" in section.notes[0]
    # The reason is the innermost error, not the task group that wraps it.
    assert "ExceptionGroup" not in section.notes[0]
