"""TypeScript as models write it, each snippet with the value its last expression has when it runs.

The cases live in ``typescript_cases.txt``, as plain code to read and edit. Each expected value is what the
TypeScript compiler's output gives under Node (types change nothing at run time); every snippet ends with an
expression whose value is a string, number or boolean, so that the engine's completion value compares directly.
"""

from __future__ import annotations

import json
from pathlib import Path

CASES_FILE = Path(__file__).with_name("typescript_cases.txt")
HEADER = "=== "


def load_cases(path: Path = CASES_FILE) -> list[tuple[str, str, object]]:
    """``(name, code, expected)`` for each case in ``path``."""
    cases: list[tuple[str, str, object]] = []
    text = path.read_text(encoding="utf-8")
    lines = text[text.index("\n" + HEADER) + 1 :].split("\n")  # what comes before the first case is a comment
    header: str | None = None
    body: list[str] = []
    for line in [*lines, HEADER + "end => null"]:
        if line.startswith(HEADER):
            if header is not None:
                name, expected = header.split(" => ", 1)
                cases.append((name, "\n".join(body).strip("\n"), json.loads(expected)))
            header, body = line.removeprefix(HEADER), []
        else:
            body.append(line)
    return cases


CASES = load_cases()
