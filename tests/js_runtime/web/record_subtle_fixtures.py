"""Records Node's outcomes of the crypto.subtle key cases into fixtures/subtle_node.json.

Run from the repository root with Node 20 on PATH:
    .venv/bin/python tests/js_runtime/web/record_subtle_fixtures.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_fixtures import node_outcomes
from subtle_cases import CASES

FIXTURE = Path(__file__).parent / "fixtures" / "subtle_node.json"


def main() -> None:
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if not version.startswith("v20."):
        raise SystemExit(f"the fixtures record Node 20; this node is {version}")
    recorded: dict[str, object] = {"node": version}
    for group, sources in CASES.items():
        recorded[group] = [
            {"case": source, "node": outcome} for source, outcome in zip(sources, node_outcomes(sources), strict=True)
        ]
    FIXTURE.write_text(json.dumps(recorded, indent=1, ensure_ascii=True) + "\n", encoding="ascii")


if __name__ == "__main__":
    main()
