"""The command line as a person at a terminal meets it: Ctrl-C, a server started by hand, arguments from files and
stdin, images as files, one JSON document, and errors (settings, HTTP, a missing flag) that say what to change and
never print a traceback."""

from __future__ import annotations

import base64
import io
import json
import os
import pty
import signal
import socket
import subprocess
import sys
from pathlib import Path

import anyio
import httpx2
import psutil
import pytest
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream

from sandbox_server.cli import INTERRUPTED, TERMINAL_NOTE
from sandbox_server.cli.flags import FIELDS, env_name

from .servers import free_port, http_server, server_env

COMMAND = [sys.executable, "-m", "sandbox_server"]


def run_cli(*args: str, stdin: str | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=server_env(**env),
        timeout=120,
        check=False,
    )


async def read_until(stream: BufferedByteReceiveStream, fragment: bytes) -> bytes:
    """What ``stream`` gives up to and including the first line holding ``fragment``."""
    seen = b""
    while fragment not in seen:
        seen += await stream.receive_until(b"\n", 1 << 20) + b"\n"
    return seen


async def interrupt_and_finish(process: Process, before: bytes, stderr: BufferedByteReceiveStream) -> str:
    """Send SIGINT to the process group, as Ctrl-C at a terminal does, and return all of stderr."""
    os.killpg(process.pid, signal.SIGINT)
    rest = b""
    with anyio.fail_after(60):
        while True:
            try:
                rest += await stderr.receive()
            except anyio.EndOfStream:
                break
        await process.wait()
    return (before + rest).decode()


def png_bytes() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (2, 2), (255, 0, 0)).save(out, "PNG")
    return out.getvalue()


# --- Ctrl-C -----------------------------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("args", "ready"),
    [
        pytest.param([], b"JavaScript worker", id="stdio"),
        pytest.param(["serve", "--transport", "http", "--port", "0"], b"Application startup complete", id="http"),
    ],
)
async def test_ctrl_c_stops_a_server_with_one_line_and_status_130(args: list[str], ready: bytes) -> None:
    async with await anyio.open_process(
        [*COMMAND, *args], env=server_env(), start_new_session=True, stdin=subprocess.PIPE
    ) as process:
        assert process.stderr is not None
        stderr = BufferedByteReceiveStream(process.stderr)
        with anyio.fail_after(60):
            before = await read_until(stderr, ready)
        text = await interrupt_and_finish(process, before, stderr)
    assert process.returncode == 130
    assert "Traceback" not in text
    assert text.endswith(INTERRUPTED)
    assert text.count(INTERRUPTED) == 1


@pytest.mark.anyio
async def test_ctrl_c_during_a_tools_call_stops_the_call_with_one_line_and_status_130() -> None:
    code = '{"code": "while (true) {}", "timeout_ms": 60000}'
    async with await anyio.open_process(
        [*COMMAND, "tools", "call", "execute_js", "--args", code], env=server_env(), start_new_session=True
    ) as process:
        assert process.stderr is not None
        me = psutil.Process(process.pid)
        with anyio.fail_after(60):
            # The call is under way once the server it started has a worker process (its grandchild); nothing
            # announces that, so the process tree is polled.
            while not any(child.children() for child in me.children()):  # noqa: ASYNC110
                await anyio.sleep(0.05)
        text = await interrupt_and_finish(process, b"", BufferedByteReceiveStream(process.stderr))
    assert process.returncode == 130
    assert text == INTERRUPTED


# --- started by hand -------------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_server_started_at_a_terminal_says_it_waits_for_a_client_and_how_to_try_it() -> None:
    leader, follower = pty.openpty()
    try:
        async with await anyio.open_process(COMMAND, env=server_env(), stdin=follower) as process:
            assert process.stderr is not None
            stderr = BufferedByteReceiveStream(process.stderr)
            with anyio.fail_after(60):
                seen = await read_until(stderr, b"waiting for an MCP client")
            process.terminate()
            with anyio.fail_after(60):
                await process.wait()
    finally:
        os.close(follower)
        os.close(leader)
    assert TERMINAL_NOTE.encode() in seen
    assert b"sandbox-server tools call" in seen


def test_a_server_whose_stdin_is_not_a_terminal_prints_no_note() -> None:
    done = run_cli("serve", stdin="")
    assert done.returncode == 0, done.stderr
    assert "waiting for an MCP client" not in done.stderr


# --- arguments ---------------------------------------------------------------------------------------------------


def test_args_and_then_can_come_from_files(tmp_path: Path) -> None:
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text('{"code": "const n = 40", "session": "s"}')
    second.write_text('{"code": "n + 2", "session": "s"}')
    done = run_cli("tools", "call", "execute_js", "--args", f"@{first}", "--then", f"@{second}")
    assert done.returncode == 0, done.stderr
    assert "---\nResult: 42\n" in done.stdout


def test_args_can_come_from_stdin_beyond_what_a_command_line_holds() -> None:
    numbers = list(range(60_000))  # about 350 KB of JSON, more than one argument may be (128 KiB on Linux)
    arguments = json.dumps({"code": "input.length + ':' + input.reduce((a, b) => a + b, 0)", "input": numbers})
    done = run_cli("tools", "call", "execute_js", "--args", "-", stdin=arguments)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Result: {len(numbers)}:{sum(numbers)}\n")


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        pytest.param(["--args", "@/nonexistent/a.json"], None, "cannot read the file of --args", id="missing-file"),
        pytest.param(["--args", "-"], "[1, 2]", "--args (from stdin) must be a JSON object", id="stdin-not-object"),
        pytest.param(["--args", "-"], "{oops", "--args (from stdin) is not valid JSON", id="stdin-not-json"),
        pytest.param(["--args", "-", "--code-file", "-"], "", "cannot both read stdin", id="stdin-twice"),
        pytest.param(["--then", "-"], "", "--then cannot read stdin", id="then-stdin"),
    ],
)
def test_unusable_arguments_are_a_usage_error_saying_why(args: list[str], stdin: str | None, message: str) -> None:
    done = run_cli("tools", "call", "execute_js", *args, stdin=stdin)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def image_call(*extra: str) -> subprocess.CompletedProcess[str]:
    code = "display(Uint8Array.from(atob(input), (c) => c.charCodeAt(0))); 'shown'"
    arguments = json.dumps({"code": code, "input": base64.b64encode(png_bytes()).decode()})
    return run_cli("tools", "call", "execute_js", "--args", arguments, *extra)


def test_save_images_writes_each_image_and_prints_its_path_instead_of_its_data(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    done = image_call("--save-images", str(folder))
    assert done.returncode == 0, done.stderr
    path = folder / "image-1.png"
    assert path.read_bytes() == png_bytes()
    assert f"[image 1: {path.resolve()} (image/png, {len(png_bytes())} bytes)]" in done.stdout.splitlines()
    assert base64.b64encode(png_bytes()).decode()[:20] not in done.stdout


def test_without_save_images_an_image_is_one_line_that_names_the_flag() -> None:
    done = image_call()
    assert done.returncode == 0, done.stderr
    assert f"[image 1: image/png, {len(png_bytes())} bytes; --save-images DIR writes it to a file]" in done.stdout
    assert base64.b64encode(png_bytes()).decode()[:20] not in done.stdout


def test_save_images_with_json_puts_the_path_in_place_of_the_data(tmp_path: Path) -> None:
    done = image_call("--save-images", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    images = [block for block in json.loads(done.stdout)["content"] if block["type"] == "image"]
    assert images == [{"type": "image", "mimeType": "image/png", "path": str((tmp_path / "image-1.png").resolve())}]


# --- one JSON document -------------------------------------------------------------------------------------------


def test_json_with_then_prints_one_array_of_the_results() -> None:
    done = run_cli(
        "tools", "call", "execute_js", "--json", "--args", '{"code": "1 + 1"}', "--then", '{"code": "2 + 2"}'
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)  # one document: json.loads refuses two
    assert [result["structuredContent"]["result"] for result in results] == [2, 4]


def test_json_without_then_prints_the_result_itself() -> None:
    done = run_cli("tools", "call", "add", "--json", "--args", '{"a": 1, "b": 2}')
    assert json.loads(done.stdout)["structuredContent"]["result"] == "3"


def test_json_prints_one_error_document_when_the_call_fails() -> None:
    done = run_cli("tools", "call", "nosuch", "--json")
    assert done.returncode == 1
    document = json.loads(done.stdout)
    assert "Unknown tool: 'nosuch'" in document["error"]
    assert done.stderr == f"sandbox-server: {document['error']}\n"


# --- settings ----------------------------------------------------------------------------------------------------


def test_an_unknown_sandbox_variable_is_warned_about_with_the_closest_name() -> None:
    done = run_cli("tools", "call", "add", "--args", '{"a": 1, "b": 2}', SANDBOX_MEMORY_LIMT_MB="64")
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "sandbox-server: warning: SANDBOX_MEMORY_LIMT_MB is not a setting and is ignored; "
        "did you mean SANDBOX_MEMORY_LIMIT_MB?\n"
    )


def test_an_unknown_sandbox_variable_far_from_any_name_points_at_the_help() -> None:
    done = run_cli("tools", "list", SANDBOX_ZZZ="1")
    assert "SANDBOX_ZZZ is not a setting and is ignored; sandbox-server serve --help lists every setting" in done.stderr


def bad_value(name: str) -> dict[str, str] | None:
    """An environment that gives the setting ``name`` a value it refuses (None where every value is usable)."""
    variable = env_name(name)
    special = {
        "data_dir": "/nonexistent/folder",
        "upstream": "/nonexistent/servers.json",
        "timezone": "Mars/Olympus",
        "host": "",
        "http_sessions": "maybe",
    }
    if name in ("auth_token", "metrics_token"):  # checked where HTTP is served
        return {"SANDBOX_TRANSPORT": "http", variable: " "}
    if name in ("allowed_hosts", "packages_dir"):  # any names; a packages folder is made when first used
        return None
    if name in special:
        return {variable: special[name]}
    annotation = str(FIELDS[name].annotation)
    return {variable: "nope" if "Literal" in annotation else "-1"}


def test_every_bad_setting_is_a_configuration_error_never_another_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    from pydantic import ValidationError

    from sandbox_server.cli.flags import build_parser, configuration_problem, settings_from
    from sandbox_server.upstream.config import load_upstream_config

    checked = []
    for name in FIELDS:
        env = bad_value(name)
        if env is None:
            continue
        with monkeypatch.context() as patch:
            for key, value in env.items():
                patch.setenv(key, value)
            args = build_parser().parse_args(["serve"])
            try:
                settings = settings_from(args)
            except ValidationError as exc:
                assert any(env_name(name) in configuration_problem(e, args) for e in exc.errors()), name
            else:
                assert name == "upstream"
                with pytest.raises(Exception, match="nonexistent") as caught:
                    load_upstream_config(settings.upstream)  # type: ignore[arg-type]
                assert type(caught.value).__name__ == "UpstreamConfigError"
        checked.append(name)
    assert len(checked) == len(FIELDS) - 2


@pytest.mark.parametrize(
    ("args", "env", "expected"),
    [
        pytest.param(
            ["serve"],
            {"SANDBOX_PLATFORM": "windows"},
            "SANDBOX_PLATFORM = 'windows': Input should be 'auto', 'linux' or 'portable'",
            id="platform",
        ),
        pytest.param(
            ["serve", "--drain-timeout", "-5"],
            {},
            "--drain-timeout = -5.0: Input should be greater than or equal to 0 (accepted: from 0 to 86400)",
            id="drain",
        ),
        pytest.param(["serve"], {"SANDBOX_HTTP_SESSIONS": "maybe"}, "SANDBOX_HTTP_SESSIONS = 'maybe'", id="bool"),
        pytest.param(["serve"], {"SANDBOX_DATA_DIR": "/nonexistent"}, "does not exist", id="path"),
        pytest.param(["serve"], {"SANDBOX_UPSTREAM": "/nonexistent.json"}, "/nonexistent.json", id="upstream"),
        pytest.param(["tools", "list"], {"SANDBOX_TIMEZONE": "Mars/Olympus"}, "unknown time zone", id="zone"),
        pytest.param(["--port", "-1"], {}, "--port = -1: Input should be greater than or equal to 0", id="port"),
    ],
)
def test_a_bad_setting_exits_2_with_one_line_and_no_traceback(
    args: list[str], env: dict[str, str], expected: str
) -> None:
    done = run_cli(*args, **env)
    assert done.returncode == 2
    assert expected in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_platform_is_a_configuration_error_also_when_the_workers_are_counted_from_the_cpus() -> None:
    env = server_env(SANDBOX_PLATFORM="windows")
    del env["SANDBOX_WORKERS"]  # the default number of workers asks the platform module for the CPUs
    done = subprocess.run(
        [*COMMAND, "tools", "list"], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.returncode == 2
    assert done.stderr == (
        "sandbox-server: invalid configuration: SANDBOX_PLATFORM = 'windows': Input should be 'auto', 'linux' or "
        "'portable'\n"
    )


def test_a_flag_of_serve_before_a_client_command_is_a_usage_error_naming_it() -> None:
    done = run_cli("--port", "9000", "tools", "list")
    assert done.returncode == 2
    assert "--port: a flag of serve, which `tools` does not take" in done.stderr


@pytest.mark.parametrize(
    "servers",
    [
        pytest.param({}, id="empty"),
        pytest.param({"a": {"command": "true", "disabled": True}}, id="all-disabled"),
    ],
)
@pytest.mark.parametrize("command", [["serve"], ["upstream", "list"], ["tools", "list"]])
def test_an_upstream_file_without_servers_exits_with_a_message(
    servers: dict[str, object], command: list[str], tmp_path: Path
) -> None:
    path = tmp_path / "servers.json"
    path.write_text(json.dumps({"mcpServers": servers}))
    done = run_cli("--upstream", str(path), *command)
    assert done.returncode == 2
    assert done.stderr == (
        f"sandbox-server: {path} lists no MCP server to connect to (its mcpServers is empty, or every server in it "
        "is disabled): add one, or leave out --upstream\n"
    )


# --- what to add -------------------------------------------------------------------------------------------------


def test_calling_execute_js_with_tools_without_upstream_names_the_flag() -> None:
    done = run_cli("tools", "call", "execute_js_with_tools", "--args", '{"code": "1"}')
    assert done.returncode == 1
    assert "It exists only when the server is started with --upstream FILE" in done.stderr


def test_passing_files_without_a_data_folder_names_the_flag() -> None:
    done = run_cli("tools", "call", "execute_js", "--args", '{"code": "1", "files": ["a.csv"]}')
    assert done.returncode == 1
    assert "start it with --data-dir PATH (or SANDBOX_DATA_DIR)" in done.stdout


def test_passing_files_to_a_tool_that_never_takes_them_gets_no_data_folder_hint() -> None:
    done = run_cli("tools", "call", "add", "--args", '{"a": 1, "b": 2, "files": ["a.csv"]}')
    assert done.returncode == 1
    assert "--data-dir" not in done.stdout


# --- HTTP --------------------------------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("headers", "status", "fragment"),
    [
        pytest.param({"Host": "evil.example:8000"}, 421, "--allowed-hosts evil.example", id="host"),
        pytest.param({"Origin": "https://evil.example"}, 403, "--allowed-hosts evil.example", id="origin"),
    ],
)
async def test_a_refused_host_or_origin_is_answered_with_the_flag_that_accepts_it(
    headers: dict[str, str], status: int, fragment: str
) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    async with http_server() as (base, _), httpx2.AsyncClient() as http:
        with anyio.fail_after(30):
            answer = await http.post(base + "/mcp", json=ping, headers={**accept, **headers})
    assert answer.status_code == status
    assert fragment in answer.text
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"


def test_a_port_in_use_is_one_line_naming_the_port_flag() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = run_cli("serve", "--transport", "http", "--port", str(port))
    assert done.returncode == 2
    assert done.stderr == (
        f"sandbox-server: port {port} on 127.0.0.1 is in use by another program: choose another with --port "
        "(0 picks a free one)\n"
    )


def test_an_address_not_of_this_machine_is_one_line_naming_the_host_flag() -> None:
    done = run_cli("serve", "--transport", "http", "--host", "192.0.2.1", "--port", str(free_port()),
                   SANDBOX_AUTH_TOKEN="a-long-enough-token")  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("sandbox-server: cannot listen on 192.0.2.1:")
    assert "check --host" in done.stderr
    assert len(done.stderr.splitlines()) == 1
