"""Records what Node 20 answers for the URL corpus, as the fixture the tests compare against.

Run from the repository root with Node 20 on PATH: `.venv/bin/python tests/js_runtime/web/record_node_fixtures.py`.
"""

from __future__ import annotations

import json
import subprocess

from web_harness import FIXTURES, HERE, NODE, run_in_node

PROBE = (HERE / "url_probe.js").read_text(encoding="utf-8")
INSPECT_PROBE = (HERE / "url_inspect_probe.js").read_text(encoding="utf-8")


def node_version() -> str:
    assert NODE is not None
    return subprocess.run([NODE, "--version"], capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    url = run_in_node(f"console.log(JSON.stringify(({PROBE})(URL, URLSearchParams)))")
    shown = run_in_node(
        "const util = require('util');"
        f" console.log(JSON.stringify(({INSPECT_PROBE})(URL, URLSearchParams, util.inspect)))"
    )
    lines = [json.dumps({"node": node_version()})]
    lines += [json.dumps(["url", *case], ensure_ascii=True) for case in url]
    lines += [json.dumps(["inspect", *case], ensure_ascii=True) for case in shown]
    (FIXTURES / "url_node.jsonl").write_text("\n".join(lines) + "\n", encoding="ascii")


if __name__ == "__main__":
    main()
