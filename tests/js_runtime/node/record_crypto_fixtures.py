"""Records Node's outcomes of the crypto module cases into fixtures/crypto_node.json.

Run from the repository root with Node 20 on PATH:
    .venv/bin/python tests/js_runtime/node/record_crypto_fixtures.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from crypto_cases import CASES, DESCRIBE

FIXTURE = Path(__file__).parent / "fixtures" / "crypto_node.json"
NODE_TIMEOUT_SEC = 120


def node_outcomes(sources: list[str]) -> list[object]:
    """Each case's outcome as Node gives it."""
    script = f"{DESCRIBE}(JSON.parse(require('fs').readFileSync(0, 'utf8'))).then((t) => process.stdout.write(t))"
    completed = subprocess.run(
        ["node", "-e", script],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_SEC,
        check=True,
    )
    outcomes: list[object] = json.loads(completed.stdout)
    return outcomes


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
