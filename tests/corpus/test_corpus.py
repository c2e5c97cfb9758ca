"""Model-written code runs as the model meant it: a corpus of snippets in the styles models write, with Node's answers.

Each snippet under ``snippets/STYLE/`` is sent to ``execute_js`` as it is (with ``NAME.input.json`` as ``input``
when there is one) and the answer is compared with the snippet's entry in ``snippets/STYLE/expected.json``.
Entries with ``origin: node`` were written by ``generate.py`` from Node 20's output; entries with
``origin: hand`` say in ``note`` why they could not be (Node habits that must be errors here, random values
checked by pattern, Temporal which Node 20 lacks).

An entry can expect:

- success: ``stdout``, ``stderr`` (empty when absent) and ``resultText`` exactly, ``result`` (the structured
  JSON result) when the value is plain JSON, or ``stdoutPattern`` / ``resultPattern`` as regular expressions
  that must match the whole text;
- an error: ``error`` with ``kind`` and any of ``name``, ``message`` (exact), ``messageContains`` (every one
  must appear, ignoring case) and ``messageAny`` (at least one must appear, ignoring case), searched in the
  error's message and in the result text the model reads, ``line`` and ``column`` (1-based, in the snippet's
  own text) and ``stackContains`` (frames the stack must show);
- either: success fields plus ``orError``, for constructs that may either work or be refused with an error that
  names them and says how to write them instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

pytestmark = pytest.mark.anyio

HERE = Path(__file__).resolve().parent
SNIPPETS = HERE / "snippets"
CALL_WAIT_S = 30
"""Upper bound of one call; every snippet needs a few milliseconds."""

MINIMUM_SNIPPETS = 160
SUCCESS_KEYS = frozenset({"stdout", "stderr", "resultText", "result", "stdoutPattern", "resultPattern"})
ERROR_KEYS = frozenset({"kind", "name", "message", "messageContains", "messageAny", "line", "column", "stackContains"})
ENTRY_KEYS = SUCCESS_KEYS | {"origin", "note", "node_check", "error", "orError"}


@dataclass(frozen=True, slots=True)
class Snippet:
    """One corpus snippet and what it must give."""

    style: str
    name: str
    path: Path
    code: str
    input: Any
    has_input: bool
    expected: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.style}/{self.name}"


def load_corpus() -> list[Snippet]:
    """Every snippet with its expectation (a snippet without one gets an empty expectation, which fails)."""
    corpus: list[Snippet] = []
    for style_dir in sorted(path for path in SNIPPETS.iterdir() if path.is_dir()):
        expected_file = style_dir / "expected.json"
        expected = json.loads(expected_file.read_text()) if expected_file.exists() else {}
        for path in sorted(style_dir.iterdir()):
            if path.suffix not in {".js", ".ts"}:
                continue
            input_file = path.with_name(path.stem + ".input.json")
            corpus.append(
                Snippet(
                    style=style_dir.name,
                    name=path.stem,
                    path=path,
                    code=path.read_text(),
                    input=json.loads(input_file.read_text()) if input_file.exists() else None,
                    has_input=input_file.exists(),
                    expected=expected.get(path.stem, {}),
                )
            )
    return corpus


CORPUS = load_corpus()


def test_the_corpus_is_large_and_every_snippet_has_a_well_formed_expectation() -> None:
    assert len(CORPUS) >= MINIMUM_SNIPPETS
    for snippet in CORPUS:
        entry = snippet.expected
        assert entry, f"{snippet.id} has no entry in expected.json (run generate.py)"
        assert set(entry) <= ENTRY_KEYS, f"{snippet.id}: unknown keys {set(entry) - ENTRY_KEYS}"
        assert entry["origin"] in {"node", "hand"}, snippet.id
        if entry["origin"] == "hand":
            assert entry.get("note"), f"{snippet.id}: a hand-written expectation says why in 'note'"
        has_success = bool(set(entry) & SUCCESS_KEYS)
        assert has_success != ("error" in entry), f"{snippet.id}: expects either success or an error"
        if has_success:
            assert {"stdout", "stdoutPattern"} & set(entry), f"{snippet.id}: says nothing about stdout"
            assert {"resultText", "resultPattern", "result"} & set(entry), f"{snippet.id}: says nothing of the result"
        for spec in (entry.get("error"), entry.get("orError")):
            if spec is not None:
                assert "kind" in spec and set(spec) <= ERROR_KEYS, f"{snippet.id}: bad error spec {spec}"


def test_every_expected_entry_belongs_to_a_snippet() -> None:
    names = {snippet.id for snippet in CORPUS}
    for expected_file in SNIPPETS.glob("*/expected.json"):
        for name in json.loads(expected_file.read_text()):
            assert f"{expected_file.parent.name}/{name}" in names, f"stale entry {name} in {expected_file}"


def full_match(pattern: str, text: str) -> bool:
    return re.fullmatch(pattern, text, re.DOTALL) is not None


def check_success(entry: dict[str, Any], text: str, structured: dict[str, Any]) -> None:
    failure = structured.get("error")
    assert failure is None, f"expected success, got an error: {text[:2000]}"
    assert structured["ok"] is True
    assert structured["stdout"] == entry.get("stdout", structured["stdout"]), "stdout differs"
    assert structured["stderr"] == entry.get("stderr", ""), "stderr differs"
    if "stdoutPattern" in entry:
        assert full_match(entry["stdoutPattern"], structured["stdout"]), f"stdout {structured['stdout']!r}"
    if "resultText" in entry:
        assert structured["resultText"] == entry["resultText"], "resultText differs"
    if "resultPattern" in entry:
        assert full_match(entry["resultPattern"], structured["resultText"]), f"result {structured['resultText']!r}"
    if "result" in entry:
        assert structured.get("result") == entry["result"], "structured result differs"
    assert structured["truncated"] is False
    # The text the model reads shows the value: a string as itself, anything else as Node prints it.
    shown = structured["result"] if structured.get("resultType") == "string" else structured["resultText"]
    assert shown in text, f"the result text does not show {shown!r}: {text[:2000]}"


def check_error(spec: dict[str, Any], text: str, structured: dict[str, Any]) -> None:
    failure = structured.get("error")
    assert isinstance(failure, dict), f"expected an error, got success: {text[:2000]}"
    assert failure["kind"] == spec["kind"], f"error kind {failure['kind']!r}: {text[:2000]}"
    if "name" in spec:
        assert failure["name"] == spec["name"], f"error name {failure['name']!r}: {text[:2000]}"
    if "message" in spec:
        assert failure["message"] == spec["message"]
    for key in ("line", "column"):
        if key in spec:
            assert failure[key] == spec[key], f"error {key} {failure[key]!r}, expected {spec[key]}: {text[:2000]}"
    for needle in spec.get("stackContains", []):
        assert needle in (failure.get("stack") or ""), f"the stack does not show {needle!r}: {text[:2000]}"
    readable = f"{failure.get('message') or ''}\n{text}".lower()
    for needle in spec.get("messageContains", []):
        assert needle.lower() in readable, f"the error does not mention {needle!r}: {text[:2000]}"
    if "messageAny" in spec:
        wanted = spec["messageAny"]
        assert any(needle.lower() in readable for needle in wanted), f"mentions none of {wanted}: {text[:2000]}"


@pytest.mark.parametrize(
    "snippet",
    [
        pytest.param(
            snippet,
            id=snippet.id,
            # A style whose folder holds a PENDING file waits for what its snippets need (the file says what).
            marks=pytest.mark.skipif((snippet.path.parent / "PENDING").exists(), reason="style pending"),
        )
        for snippet in CORPUS
    ],
)
async def test_the_snippet_gives_the_expected_answer(client: Client, snippet: Snippet) -> None:
    arguments: dict[str, Any] = {"code": snippet.code}
    if snippet.has_input:
        arguments["input"] = snippet.input
    with anyio.fail_after(CALL_WAIT_S):
        answer = await client.call_tool("execute_js", arguments)
    text = answer.content[0].text  # type: ignore[union-attr]
    structured = answer.structured_content
    assert isinstance(structured, dict)
    assert bool(answer.is_error) == (structured.get("error") is not None)
    entry = snippet.expected
    if "error" in entry:
        check_error(entry["error"], text, structured)
    elif "orError" in entry and structured.get("error") is not None:
        check_error(entry["orError"], text, structured)
    else:
        check_success(entry, text, structured)


def node_sample() -> list[Snippet]:
    """The first JavaScript snippet of each style whose expectation came from Node."""
    sample: dict[str, Snippet] = {}
    for snippet in CORPUS:
        if snippet.expected.get("origin") == "node" and snippet.path.suffix == ".js":
            sample.setdefault(snippet.style, snippet)
    return list(sample.values())


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
@pytest.mark.parametrize("snippet", [pytest.param(snippet, id=snippet.id) for snippet in node_sample()])
def test_the_expectations_taken_from_node_are_still_what_node_gives(snippet: Snippet) -> None:
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=30, check=True).stdout
    if not version.startswith("v20."):
        pytest.skip(f"the expectations come from Node 20, this is Node {version.strip()}")
    command = ["node", "--expose-internals", str(HERE / "node_runner.js"), str(snippet.path)]
    if snippet.has_input:
        command.append(str(snippet.path.with_name(f"{snippet.name}.input.json")))
    env = {**os.environ, "TZ": "UTC", "LANG": "en_US.UTF-8"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=30, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    expected = {key: value for key, value in snippet.expected.items() if key not in {"origin", "note", "orError"}}
    assert {"stderr": "", **expected} == {key: report[key] for key in ("stderr", *expected)}
