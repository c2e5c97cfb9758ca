"""Records what Node 20 gives for the Node module cases, as the fixture the tests compare against.

Run from the repository root with Node 20 on PATH: `.venv/bin/python tests/js_runtime/node/record_node_fixtures.py`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from node_cases import MODULES, PRINTED
from node_harness import FIXTURE, NODE, node_outcomes, node_printed


def main() -> None:
    assert NODE is not None, "node is not on PATH"
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if not version.startswith("v20."):
        raise SystemExit(f"the fixtures record Node 20; this node is {version}")
    recorded: dict[str, object] = {"node": version}
    for module, (prelude, sources) in MODULES.items():
        outcomes = node_outcomes(prelude, sources)
        recorded[module] = [
            {"case": source, "node": outcome} for source, outcome in zip(sources, outcomes, strict=True)
        ]
    recorded["printed"] = [{"program": program, **node_printed(program)} for program in PRINTED]
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(compact_json(recorded), encoding="ascii")


def compact_json(recorded: dict[str, object]) -> str:
    """The fixture as JSON with one line per case, so that a change in Node's answers reads as a short diff."""
    parts = []
    for key, value in recorded.items():
        if isinstance(value, list):
            lines = ",\n".join("  " + json.dumps(entry, ensure_ascii=True) for entry in value)
            parts.append(f" {json.dumps(key)}: [\n{lines}\n ]")
        else:
            parts.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=True)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


if __name__ == "__main__":
    main()
