"""Peer options of ``python -m benchmarks``: parsing, errors that say what is accepted, and finding the code tool."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from benchmarks.cli import build_parser
from benchmarks.peer_options import (
    MCP_RUN_PYTHON,
    SUM_EXPECTED,
    PeerSpec,
    PeerToolError,
    builtin_code,
    choose_tool,
    guess_language,
    specs_from,
)


def _specs(*argv: str) -> list[PeerSpec]:
    return specs_from(build_parser().parse_args(list(argv)))


def test_a_peer_command_is_split_like_a_shell_and_its_settings_attach_to_it_by_name() -> None:
    [spec] = _specs(
        "--peer", "py=deno run -A 'my server.ts' stdio",
        "--peer-tool", "py=run",
        "--peer-argument", "py=source",
        "--peer-language", "py=python",
        "--peer-sum", "py=sum(range(10))",
    )  # fmt: skip
    assert spec.name == "py"
    assert spec.command == ["deno", "run", "-A", "my server.ts", "stdio"]
    assert (spec.tool, spec.argument, spec.language, spec.sum, spec.trivial) == (
        "run", "source", "python", "sum(range(10))", None
    )  # fmt: skip
    assert not spec.found


def test_several_peers_keep_their_order() -> None:
    specs = _specs("--peer", "b=server-b", "--peer", "a=server-a --stdio")
    assert [(s.name, s.command) for s in specs] == [("b", ["server-b"]), ("a", ["server-a", "--stdio"])]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--peer", "just-a-command"], "--peer expects NAME=VALUE", id="no-equals"),
        pytest.param(["--peer", "=cmd"], "--peer expects NAME=VALUE", id="empty-name"),
        pytest.param(["--peer", "x=  "], "--peer expects NAME=VALUE", id="empty-command"),
        pytest.param(["--peer", "x=a", "--peer", "x=b"], "--peer names 'x' twice", id="duplicate"),
        pytest.param(["--peer-tool", "x=run"], "which no --peer defines (defined: none)", id="undefined-peer"),
        pytest.param(
            ["--peer", "x=a", "--peer-language", "x=ruby"], "must be one of javascript, python", id="bad-language"
        ),
    ],
)
def test_malformed_peer_options_are_refused_saying_what_is_accepted(argv: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        _specs(*argv)


def test_the_command_line_exits_with_the_reason_for_a_bad_peer_option(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.cli import run

    with pytest.raises(SystemExit) as caught:
        run(["--peer-sum", "nobody=1"])
    assert caught.value.code == 2
    assert "names peer 'nobody', which no --peer defines" in capsys.readouterr().err


def _executable(folder: Path, name: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_without_peer_options_mcp_run_python_is_used_only_when_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert _specs() == []
    _executable(tmp_path, MCP_RUN_PYTHON)
    [spec] = _specs()
    assert spec.command == [os.path.join(tmp_path, MCP_RUN_PYTHON), "stdio"]
    assert (spec.tool, spec.argument, spec.language, spec.found) == ("run_python_code", "python_code", "python", True)
    # A peer named on the command line replaces the one found.
    assert [s.name for s in _specs("--peer", "other=srv")] == ["other"]


_STRING = {"type": "string"}
_NUMBER = {"type": "number"}
TOOLS = [
    (
        "add",
        {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
    ),
    ("execute_js", {"type": "object", "properties": {"code": _STRING, "input": {}}, "required": ["code"]}),
]


def test_the_code_tool_is_the_first_with_a_required_string_argument_named_for_code() -> None:
    assert choose_tool(PeerSpec("p"), TOOLS) == ("execute_js", "code")


def test_a_lone_required_string_argument_is_taken_as_the_code_argument() -> None:
    tools = [("evaluate", {"properties": {"source": _STRING}, "required": ["source"]})]
    assert choose_tool(PeerSpec("p"), tools) == ("evaluate", "source")


def test_a_named_tool_and_argument_are_used_as_given() -> None:
    tools = [*TOOLS, ("shell", {"properties": {"script": _STRING, "cwd": _STRING}, "required": ["script", "cwd"]})]
    assert choose_tool(PeerSpec("p", tool="shell", argument="script"), tools) == ("shell", "script")


def test_a_named_tool_that_is_missing_is_reported_with_the_tools_there_are() -> None:
    with pytest.raises(PeerToolError, match="has no tool 'run'; its tools: add, execute_js"):
        choose_tool(PeerSpec("p", tool="run"), TOOLS)


def test_a_peer_without_a_code_tool_is_told_which_options_to_give() -> None:
    with pytest.raises(PeerToolError, match="--peer-tool p=TOOL and --peer-argument p=ARG"):
        choose_tool(PeerSpec("p"), TOOLS[:1])


def test_the_language_follows_the_tool_or_argument_name_unless_given() -> None:
    assert guess_language("run_python_code", "python_code") == "python"
    assert guess_language("execute_js", "code") == "javascript"
    assert PeerSpec("p").code("run_python_code", "python_code").sum == builtin_code("python").sum
    assert PeerSpec("p", language="javascript").code("run_python_code", "x").sum == builtin_code("javascript").sum


def test_given_code_replaces_the_built_in_code_and_is_not_checked() -> None:
    code = PeerSpec("p", trivial="2*1", language="python").code("t", "a")
    assert (code.trivial, code.trivial_expected) == ("2*1", None)
    assert (code.sum, code.sum_expected) == (builtin_code("python").sum, SUM_EXPECTED)


def test_the_built_in_python_sum_computes_the_expected_total() -> None:
    scope: dict[str, int] = {}
    *body, last = builtin_code("python").sum.splitlines()
    exec("\n".join(body), scope)
    assert str(eval(last, scope)) == SUM_EXPECTED
