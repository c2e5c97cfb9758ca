"""Writes the corpus's expected outputs by running every snippet in Node, so that they are Node's answers.

Usage: ``python tests/corpus/generate.py`` (Node 20 and npm on PATH). TypeScript snippets are transpiled with
the ``typescript`` package, installed once into a cache directory (``--typescript-dir``).

Each style directory under ``snippets/`` holds the snippets (``NAME.js`` or ``NAME.ts``, with ``NAME.input.json``
when the snippet reads ``input``) and one ``expected.json``. An entry whose ``origin`` is ``"node"`` is rewritten
from Node's output on every run. An entry whose ``origin`` is ``"hand"`` was written by hand because Node and the
sandbox must differ (no ``require``, no network, no Temporal in Node 20) or the output is random; it is kept as
it is, and when it says ``"node_check": true`` the generator runs the snippet in Node and checks that Node's
output satisfies it too (patterns for random values, the success alternative of an either/or expectation).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SNIPPETS = HERE / "snippets"
RUNNER = HERE / "node_runner.js"
TYPESCRIPT_VERSION = "5.6.3"
NODE_TIMEOUT_S = 30


def snippet_files(style_dir: Path) -> list[Path]:
    """The snippets of one style, in name order."""
    return sorted(path for path in style_dir.iterdir() if path.suffix in {".js", ".ts"})


def ensure_typescript(cache: Path) -> Path:
    """The path of the ``typescript`` package, installed with npm into ``cache`` when missing."""
    module = cache / "node_modules" / "typescript"
    if not module.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(cache), f"typescript@{TYPESCRIPT_VERSION}"],
            check=True,
            timeout=300,
        )
    return module


def run_in_node(snippet: Path, typescript: Path) -> dict[str, Any]:
    """Node's output for one snippet: stdout, stderr and resultText (plus result when plain JSON), or error."""
    command = ["node", "--expose-internals", str(RUNNER), str(snippet)]
    input_file = snippet.with_name(snippet.stem + ".input.json")
    if input_file.exists():
        command.append(str(input_file))
    # The sandbox's clock shows UTC and its default locale is en-US.
    env = {**os.environ, "TZ": "UTC", "LANG": "en_US.UTF-8", "TYPESCRIPT_MODULE": str(typescript)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=NODE_TIMEOUT_S, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"{snippet}: node failed ({done.returncode}): {done.stderr.strip()}")
    report: dict[str, Any] = json.loads(lines[-1])
    return report


def node_entry(report: dict[str, Any]) -> dict[str, Any]:
    """An expected.json entry from Node's report (empty stderr left out)."""
    entry: dict[str, Any] = {"origin": "node"}
    if "error" in report:
        failure = report["error"]
        kind = "syntax" if failure["phase"] == "compile" else "runtime"
        entry["error"] = {"kind": kind, "name": failure["name"], "message": failure["message"]}
        return entry
    entry["stdout"] = report["stdout"]
    if report["stderr"]:
        entry["stderr"] = report["stderr"]
    for key in ("resultText", "result"):
        if key in report:
            entry[key] = report[key]
    return entry


def hand_mismatch(entry: dict[str, Any], report: dict[str, Any]) -> str | None:
    """Why Node's output does not satisfy a hand-written success expectation, or None when it does."""
    if "error" in report:
        return f"node raised {report['error']}"
    checks = [
        ("resultText", report.get("resultText", ""), "exact"),
        ("stdout", report["stdout"], "exact"),
        ("resultPattern", report.get("resultText", ""), "pattern"),
        ("stdoutPattern", report["stdout"], "pattern"),
    ]
    for key, actual, how in checks:
        if key not in entry:
            continue
        expected = entry[key]
        ok = actual == expected if how == "exact" else re.fullmatch(expected, actual, re.DOTALL) is not None
        if not ok:
            return f"{key}: expected {expected!r}, node gave {actual!r}"
    return None


def generate(typescript: Path, only: str | None) -> int:
    """Rewrites every style's expected.json; returns the number of hand entries Node contradicts."""
    problems = 0
    for style_dir in sorted(path for path in SNIPPETS.iterdir() if path.is_dir()):
        expected_file = style_dir / "expected.json"
        old: dict[str, Any] = json.loads(expected_file.read_text()) if expected_file.exists() else {}
        new: dict[str, Any] = {}
        for snippet in snippet_files(style_dir):
            name = snippet.stem
            entry = old.get(name)
            if only is not None and only not in f"{style_dir.name}/{name}":
                if entry is not None:
                    new[name] = entry
                continue
            if entry is not None and entry.get("origin") == "hand":
                new[name] = entry
                if entry.get("node_check"):
                    why = hand_mismatch(entry, run_in_node(snippet, typescript))
                    if why is not None:
                        problems += 1
                        sys.stderr.write(f"{style_dir.name}/{name}: hand expectation disagrees with node: {why}\n")
                continue
            new[name] = node_entry(run_in_node(snippet, typescript))
            # Hand-written parts of a Node entry: why it is there, and the error that may stand in for it.
            for key in ("note", "orError"):
                if entry is not None and key in entry:
                    new[name][key] = entry[key]
        expected_file.write_text(json.dumps(new, indent=2, ensure_ascii=False) + "\n")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--typescript-dir",
        type=Path,
        default=Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "sandbox-server-corpus",
        help="where the typescript package is (or gets) installed",
    )
    parser.add_argument("--only", help="regenerate only snippets whose STYLE/NAME contains this text")
    arguments = parser.parse_args()
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True, timeout=30).stdout
    if not version.startswith("v20."):
        # The runner uses Node 20's own REPL transform and parser (internal modules whose paths can change).
        sys.stderr.write(f"generate.py needs Node 20, found {version.strip()}\n")
        return 2
    return 1 if generate(ensure_typescript(arguments.typescript_dir), arguments.only) else 0


if __name__ == "__main__":
    sys.exit(main())
