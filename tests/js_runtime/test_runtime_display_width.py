"""console.table measures cells as Node does: the runtime's tables of wide and zero-width code points agree with
the ICU inside the installed Node at every boundary of every range (checked when that Node has the same Unicode
version as the tables)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from isolate_harness import RunJs

import js_runtime

TABLE_JS = Path(js_runtime.__file__).with_name("table.js")
UNICODE_VERSION = "17.0"
"""The Unicode version of Node's ICU the tables in table.js were read from."""

NODE = shutil.which("node")


def table_ranges(name: str) -> list[tuple[int, int]]:
    source = TABLE_JS.read_text(encoding="utf-8")
    match = re.search(name + r" =\n((?:\s*'[^']*'(?: \+)?\n)+)", source)
    assert match is not None, name
    text = "".join(re.findall(r"'([^']*)'", match.group(1)))
    ranges = []
    for piece in text.split():
        first, _, last = piece.partition("-")
        ranges.append((int(first, 16), int(last or first, 16)))
    return ranges


def boundary_characters() -> list[str]:
    points: set[int] = set()
    for name in ("WIDE_RANGES_TEXT", "ZERO_WIDTH_RANGES_TEXT"):
        for first, last in table_ranges(name):
            points.update((first - 1, first, last, last + 1))
    return [chr(p) for p in sorted(points) if 0x7F <= p <= 0x10FFFF and not 0xD800 <= p <= 0xDFFF]


def node_output(code: str) -> str:
    assert NODE is not None
    return subprocess.run([NODE, "-e", code], capture_output=True, text=True, check=True, timeout=60).stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_every_range_boundary_is_as_wide_as_node_measures_it(run_js: RunJs) -> None:
    if node_output("process.stdout.write(process.versions.unicode)") != UNICODE_VERSION:
        pytest.skip("the installed Node has another Unicode version than the tables")
    characters = boundary_characters()
    assert len(characters) > 1000
    code = f"console.table({json.dumps(characters)})"
    outcome = run_js(code, output_cap=2_000_000)
    assert outcome["error"] is None
    assert outcome["stdout"] == node_output(code)
