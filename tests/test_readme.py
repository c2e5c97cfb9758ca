"""Every shell session the documentation shows (the ``$ ...`` lines of its ``console`` blocks) prints what it shows.

The README, the pages of ``docs/`` and ``examples/README.md`` are where a new user copies commands from; an example
whose output drifted from the program's would teach the wrong thing, so each one is run through ``bash`` from the
checkout's root with this environment's ``sandbox-server`` first on ``PATH``, standard output and standard error
together as a terminal shows them.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .servers import server_env

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "README.md"]
BIN = Path(sys.executable).parent


def console_examples(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for each ``$`` line of each ``console`` block, in order."""
    examples: list[tuple[str, str]] = []
    # A block whose output holds code fences is fenced with more backticks, as Markdown allows.
    for _fence, block in re.findall(r"^(`{3,})console\n(.*?)^\1$", text, flags=re.MULTILINE | re.DOTALL):
        for session in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if session.strip():
                command, _, output = session.partition("\n")
                assert command.startswith("$ "), f"console block text outside a $ session: {session[:80]!r}"
                examples.append((command[2:], output))
    return examples


README_EXAMPLES = console_examples(README.read_text(encoding="utf-8"))
EXAMPLES = [
    (path.relative_to(ROOT).as_posix(), command, output)
    for path in DOCUMENTS
    if path.is_file()
    for command, output in console_examples(path.read_text(encoding="utf-8"))
]


def test_the_readme_has_console_examples_of_results_and_errors() -> None:
    commands = [command for command, _ in README_EXAMPLES]
    assert len(commands) >= 10
    assert any("isError: true" in output for _, output in README_EXAMPLES)
    assert any("nosuch" in command for command in commands)


def test_the_reference_pages_examples_are_run_too() -> None:
    """The examples that moved from the README into docs/ stay under test: each tool's page shows its errors."""
    pages = {page for page, _, _ in EXAMPLES}
    assert {"docs/execute-js.md", "docs/exact-tools.md", "docs/data-folder.md", "docs/settings.md"} <= pages
    for page in ("docs/execute-js.md", "docs/exact-tools.md"):
        assert any(p == page and "isError: true" in output for p, _, output in EXAMPLES), page


def test_the_example_reader_splits_sessions_and_keeps_their_output() -> None:
    text = "intro\n```console\n$ echo a\na\n$ echo b\nb\nc\n```\n```sh\n$ not this\n```\n"
    assert console_examples(text) == [("echo a", "a\n"), ("echo b", "b\nc\n")]
    fenced = "````console\n$ echo x\nx\n```\ninside\n```\n````\n"
    assert console_examples(fenced) == [("echo x", "x\n```\ninside\n```\n")]


@pytest.mark.skipif(not (BIN / "sandbox-server").exists(), reason="sandbox-server is not installed beside python")
@pytest.mark.parametrize(
    ("command", "expected"), [pytest.param(c, e, id=f"{page}: {c[:70]}") for page, c, e in EXAMPLES]
)
def test_each_documented_console_example_prints_what_the_documentation_shows(command: str, expected: str) -> None:
    env = server_env()
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.stdout == expected
