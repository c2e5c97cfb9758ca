"""The checkout installs the three ways docs/install.md gives, and the installed command answers a tool call: pip
into a fresh virtual environment, pipx into a private pipx home, and ``uvx --from``.

These download the dependencies (from the package index, or the local caches of pip and uv), so they are slow; each
step is bounded. pipx and uv are taken from ``PATH``, or installed from the package index into a temporary
environment when they are not there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox_server.identity import DISTRIBUTION

ROOT = Path(__file__).resolve().parent.parent
STEP_TIMEOUT_S = 600
CALL = ["tools", "call", "add", "--args", '{"a": "99999999999999999999", "b": 1}']
EXPECTED = "Result: 100000000000000000000"

pytestmark = pytest.mark.slow


def run(command: list[str | Path], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=STEP_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, f"{command}: {done.stderr[-2000:]}"
    return done


def clean_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SANDBOX_", "VIRTUAL_ENV"))}
    return {**env, **extra}


@pytest.fixture(scope="module")
def tools_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with ``pipx`` and ``uvx``: the ones on PATH, or installed into a temporary environment."""
    found = {name: shutil.which(name) for name in ("pipx", "uvx")}
    if all(found.values()):
        folder = tmp_path_factory.mktemp("tools-on-path")
        for name, path in found.items():
            (folder / name).symlink_to(str(path))
        return folder
    venv = tmp_path_factory.mktemp("install-tools")
    run([sys.executable, "-m", "venv", venv])
    run([venv / "bin" / "pip", "install", "--quiet", "pipx", "uv"], env=clean_env())
    return venv / "bin"


def test_pip_installs_the_checkout_into_a_virtual_environment(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv])
    run([venv / "bin" / "pip", "install", "--quiet", ROOT], env=clean_env())
    shown = run([venv / "bin" / "pip", "show", DISTRIBUTION], env=clean_env())
    assert f"Name: {DISTRIBUTION}" in shown.stdout
    assert run([venv / "bin" / "sandbox-server", *CALL], env=clean_env()).stdout.splitlines()[0] == EXPECTED
    version = run([venv / "bin" / "sandbox-server", "--version"], env=clean_env()).stdout
    assert "0.0.0+unknown" not in version and f"distribution {DISTRIBUTION}" in version


def test_pipx_installs_the_checkout_as_a_command(tools_bin: Path, tmp_path: Path) -> None:
    env = clean_env(
        PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(tmp_path / "bin"), PIPX_MAN_DIR=str(tmp_path / "man")
    )
    run([tools_bin / "pipx", "install", ROOT], env=env)
    assert run([tmp_path / "bin" / "sandbox-server", *CALL], env=env).stdout.splitlines()[0] == EXPECTED


def test_uvx_runs_the_command_from_the_checkout(tools_bin: Path, tmp_path: Path) -> None:
    env = clean_env(UV_TOOL_DIR=str(tmp_path / "tools"))
    done = run([tools_bin / "uvx", "--from", ROOT, "sandbox-server", *CALL], env=env)
    assert done.stdout.splitlines()[0] == EXPECTED
