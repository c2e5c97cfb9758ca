"""The one module that supervises child processes (``sandbox_server.platform.child``): what a child inherits, where it
runs, what of its stderr is kept, how it is reaped, and how it leaves."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import anyio
import pytest

from sandbox_server.platform.child import (
    INHERITED_ENV,
    MAX_STDERR_LINE,
    Child,
    child_command,
    child_env,
)

pytestmark = pytest.mark.anyio

WAIT_S = 30


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", textwrap.dedent(code)]


async def _stdout_of(child: Child) -> bytes:
    assert child.process.stdout is not None
    return b"".join([chunk async for chunk in child.process.stdout])


async def test_a_child_gets_only_the_allowed_environment_and_runs_from_the_root_in_a_session_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SANDBOX_AUTH_TOKEN", "token-that-must-not-reach-a-child")
    probe = "import json, os; print(json.dumps([dict(os.environ), os.getcwd(), os.getsid(0), os.getpid()]))"
    with anyio.fail_after(WAIT_S):
        child = await Child.spawn(_python(probe), label="probe", tail_lines=5, env=child_env({"TZ": "UTC"}))
        try:
            environment, cwd, session, pid = json.loads(await _stdout_of(child))
        finally:
            await child.reap()
    assert set(environment) <= {*INHERITED_ENV, "LANG", "LC_ALL", "PYTHONPATH", "TZ"}
    assert "SANDBOX_AUTH_TOKEN" not in environment
    assert (environment["LANG"], environment["TZ"]) == ("C.UTF-8", "UTC")
    assert cwd == "/"
    assert session == pid == child.pid


def test_a_child_command_runs_this_interpreter_without_the_current_directory_on_its_path() -> None:
    assert child_command("some.module", ["--flag"]) == [sys.executable, "-P", "-m", "some.module", "--flag"]


async def test_the_stderr_tail_keeps_the_last_lines_and_a_long_line_in_pieces() -> None:
    code = f"""
        import sys
        for n in range(30):
            sys.stderr.write(f"line {{n}}\\n")
        sys.stderr.write("x" * {MAX_STDERR_LINE * 2 + 10} + "\\n")
        sys.stderr.write("no newline at the end")
    """
    with anyio.fail_after(WAIT_S):
        child = await Child.spawn(_python(code), label="probe", tail_lines=6)
        await child.process.wait()
        await child.reap()
    pieces = ["x" * MAX_STDERR_LINE, "x" * MAX_STDERR_LINE, "x" * 10]
    assert list(child.tail) == ["line 28", "line 29", *pieces, "no newline at the end"]
    assert child.how_it_ended() == "exit status 0"


async def test_reaping_kills_a_child_that_ignores_sigterm_and_keeps_its_last_words() -> None:
    code = """
        import signal, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        sys.stderr.write("out of memory, so to speak\\n")
        sys.stderr.flush()
        print("started", flush=True)
        time.sleep(600)
    """
    with anyio.fail_after(WAIT_S):
        child = await Child.spawn(_python(code), label="probe", tail_lines=5)
        assert child.process.stdout is not None
        assert b"started" in await child.process.stdout.receive()
        assert child.how_it_ended() == "still running"
        await child.reap()
    assert child.returncode == -signal.SIGKILL
    assert child.how_it_ended() == f"killed by signal {signal.SIGKILL.value}"
    assert child.said_any(["out of memory"]) and not child.said_any(["segfault"])


async def test_a_reap_whose_caller_is_cancelled_still_ends_the_child() -> None:
    with anyio.fail_after(WAIT_S):
        child = await Child.spawn(_python("import time; time.sleep(600)"), label="probe", tail_lines=5)
        with anyio.CancelScope() as scope:
            scope.cancel()
            await child.reap()
        assert child.returncode == -signal.SIGKILL
        await child.reap()  # a second reap is harmless


@pytest.mark.parametrize(
    ("main", "status", "logged"),
    [
        pytest.param("return 3", 3, None, id="its-status"),
        pytest.param("raise SystemExit('bad arguments')", 2, None, id="bad-arguments"),
        pytest.param("raise ValueError('broken frame')", 2, "protocol failure", id="protocol-error"),
        pytest.param("raise RuntimeError('boom')", 1, "the probe failed", id="a-failure"),
    ],
)
def test_a_child_leaves_with_the_status_of_its_main_without_finalisation(
    main: str, status: int, logged: str | None
) -> None:
    code = f"""
        import atexit, os
        from sandbox_server.platform.child import begin_child, run_and_exit
        out = begin_child()
        print("a stray print")
        os.write(out, b"frame")
        atexit.register(lambda: os.write(out, b" finalised"))
        def main():
            {main}
        run_and_exit(main, what="the probe", protocol_errors=(ValueError,))
    """
    done = subprocess.run(_python(code), capture_output=True, timeout=WAIT_S, check=False)
    assert done.returncode == status
    assert done.stdout == b"frame"  # the stray print went to stderr; no exit handler ran
    assert b"a stray print" in done.stderr
    if logged is not None:
        assert logged.encode() in done.stderr


def test_a_child_inherits_the_platform_choice_and_the_import_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_PLATFORM", "portable")
    environment = child_env()
    assert environment["SANDBOX_PLATFORM"] == "portable"  # a worker uses the implementation its server uses
    # The same import path as this process, so that the child finds this very package.
    assert environment["PYTHONPATH"].split(os.pathsep) == [os.path.abspath(entry) for entry in sys.path if entry]
