"""The command line: tester subcommands, --help, --version and configuration errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from .servers import server_env

COMMAND = [sys.executable, "-m", "sandbox_server"]


def run_cli(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], input=stdin, capture_output=True, text=True, env=server_env(**env), timeout=120, check=False
    )


def test_tools_call_prints_the_result_and_exits_zero() -> None:
    done = run_cli("tools", "call", "add", "--args", '{"a": "99999999999999999999", "b": 1}')
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "Result: 100000000000000000000"


def test_tools_call_of_a_failing_tool_prints_is_error_and_exits_non_zero() -> None:
    done = run_cli("tools", "call", "divide", "--args", '{"a": 1, "b": 0}')
    assert done.returncode == 1
    assert "Error: Division by zero is not allowed." in done.stdout
    assert "isError: true" in done.stdout


def test_tools_call_reads_code_from_stdin_and_prints_json_on_request() -> None:
    done = run_cli("tools", "call", "execute_js", "--code-file", "-", "--json", stdin="console.log('hi'); 40 + 2")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["structuredContent"]["result"] == 42
    assert result["structuredContent"]["stdout"] == "hi\n"
    assert result.get("isError") in (None, False)


def test_tools_list_names_every_tool() -> None:
    done = run_cli("tools", "list")
    assert done.returncode == 0, done.stderr
    for name in ("add", "divide", "date_diff", "execute_js"):
        assert f"{name}:" in done.stdout


def test_bad_args_json_is_a_usage_error() -> None:
    done = run_cli("tools", "call", "add", "--args", "{not json")
    assert done.returncode == 2
    assert "--args is not valid JSON" in done.stderr


def test_help_lists_subcommands_and_every_setting_with_its_variable() -> None:
    top = run_cli("--help")
    assert top.returncode == 0
    for word in ("serve", "tools", "--version"):
        assert word in top.stdout
    serve = run_cli("serve", "--help")
    text = " ".join(serve.stdout.split())  # argparse wraps lines at the terminal width
    for flag in (
        "--transport",
        "--host",
        "--port",
        "--default-timeout-ms",
        "--max-timeout-ms",
        "--memory-limit-mb",
        "--output-cap-bytes",
        "--max-code-bytes",
        "--max-input-bytes",
        "--workers",
        "--timezone",
        "--log-level",
        "SANDBOX_MEMORY_LIMIT_MB",
        "default: 5000",
    ):
        assert flag in text, flag


def test_version_names_package_mini_racer_and_v8() -> None:
    done = run_cli("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sandbox-server ")
    assert "mini-racer 0.14" in done.stdout
    assert "V8 " in done.stdout


@pytest.mark.parametrize(
    ("args", "env", "fragment"),
    [
        pytest.param(["serve", "--memory-limit-mb", "1"], {}, "--memory-limit-mb = 1", id="flag-too-small"),
        pytest.param(["serve"], {"SANDBOX_WORKERS": "lots"}, "SANDBOX_WORKERS", id="env-not-a-number"),
        pytest.param(["serve", "--timezone", "Mars/Olympus"], {}, "Mars/Olympus", id="unknown-zone"),
        pytest.param(
            ["serve", "--default-timeout-ms", "9000", "--max-timeout-ms", "1000"], {}, "must not exceed", id="order"
        ),
    ],
)
def test_invalid_configuration_fails_at_start_up_naming_the_setting(
    args: list[str], env: dict[str, str], fragment: str
) -> None:
    done = run_cli(*args, **env)
    assert done.returncode == 2
    assert "invalid configuration" in done.stderr
    assert fragment in done.stderr
    assert done.stdout == ""
