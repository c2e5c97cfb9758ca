"""Writes ``snippets/expected.json``: what Node 20 prints for each snippet, with the package versions of
``fixture.lock.json`` installed by npm (install scripts off).

Usage: ``python tests/packages/generate.py`` (Node 20 and npm on PATH, the npm registry reachable). A ``.mjs``
snippet runs as an ES module, a ``.cjs`` one as CommonJS, both in the time zone UTC, as the sandbox runs them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SNIPPETS = HERE / "snippets"
LOCK = HERE / "fixture.lock.json"
EXPECTED = SNIPPETS / "expected.json"


def snippets() -> list[Path]:
    return sorted(path for path in SNIPPETS.iterdir() if path.suffix in (".mjs", ".cjs"))


def main() -> None:
    roots = json.loads(LOCK.read_text())["roots"]
    wanted = [f"{name}@{root['version']}" for name, root in sorted(roots.items())]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "package.json").write_text('{"name": "snippets", "private": true}')
        subprocess.run(
            ["npm", "install", "--ignore-scripts", "--no-audit", "--no-fund", "--prefix", str(work), *wanted],
            check=True,
            timeout=600,
        )
        expected = {}
        for snippet in snippets():
            shutil.copy(snippet, work / snippet.name)
            env = {**os.environ, "TZ": "UTC", "LANG": "en_US.UTF-8"}
            done = subprocess.run(
                ["node", snippet.name], cwd=work, capture_output=True, text=True, env=env, timeout=60, check=False
            )
            if done.returncode != 0:
                raise SystemExit(f"{snippet.name} failed in Node: {done.stderr}")
            expected[snippet.name] = {
                "stdout": done.stdout,
                "node": subprocess.check_output(["node", "--version"], text=True).strip(),
            }
    EXPECTED.write_text(json.dumps(expected, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
