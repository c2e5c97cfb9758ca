"""The operating-system interface: both implementations work on this machine, and the choice is the setting's."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import pytest

from sandbox_server.platform import linux, portable


@pytest.mark.parametrize("implementation", [linux, portable], ids=["linux", "portable"])
def test_each_implementation_reads_a_growing_data_size(implementation: object) -> None:
    data_size = implementation.data_size  # type: ignore[attr-defined]
    before = data_size()
    block = bytearray(64 * 2**20)  # touched: resident on every system
    after = data_size()
    del block
    assert before > 0
    assert after - before >= 32 * 2**20


def test_the_linux_descriptor_path_is_the_file_opened_and_the_portable_one_says_so_or_nothing() -> None:
    with tempfile.NamedTemporaryFile() as handle:
        assert linux.descriptor_path(handle.fileno()) == os.path.realpath(handle.name)
        assert portable.descriptor_path(handle.fileno()) in (None, os.path.realpath(handle.name))


def test_only_the_linux_implementation_limits_the_data_size() -> None:
    assert portable.limit_data_size(2**40) is None


@pytest.mark.parametrize(
    "use",
    [
        pytest.param("from sandbox_server.platform import data_size", id="import-a-function"),
        pytest.param("from sandbox_server import platform; platform.cpu_count()", id="call-a-function"),
        pytest.param("from sandbox_server import platform; platform.NAME", id="read-the-name"),
    ],
)
def test_an_unknown_platform_setting_stops_the_first_use_with_a_message_naming_it(use: str) -> None:
    env = {**os.environ, "SANDBOX_PLATFORM": "plan9"}
    done = subprocess.run([sys.executable, "-c", use], env=env, capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "ValueError: SANDBOX_PLATFORM='plan9' is not one of auto, linux, portable" in done.stderr


def test_an_unknown_platform_setting_leaves_the_package_importable_for_the_setting_to_report() -> None:
    # The child-process supervisor lives in the package, and the CLI imports it before it reads its settings.
    env = {**os.environ, "SANDBOX_PLATFORM": "plan9"}
    code = "import sandbox_server.platform.child as c; print(c.INHERITED_ENV[-1])"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "SANDBOX_PLATFORM\n")


def test_a_portable_worker_ends_when_its_parent_is_gone() -> None:
    # A parent starts a child that watches it the portable way, prints the child's pid, and exits at once.
    child = "from sandbox_server.platform import portable; portable.die_with_parent(); import time; time.sleep(60)"
    parent = (
        "import subprocess, sys; "
        f"p = subprocess.Popen([sys.executable, '-c', {child!r}], start_new_session=True); print(p.pid, flush=True)"
    )
    done = subprocess.run([sys.executable, "-c", parent], capture_output=True, text=True, check=True, timeout=60)
    pid = int(done.stdout)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)  # polling until the orphan notices (it checks every half second)
    os.kill(pid, 9)
    raise AssertionError("the orphaned worker did not end within 30 s")
