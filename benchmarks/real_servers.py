"""Seven real MCP servers nobody here wrote, installed once into a cache folder at pinned versions, for
:mod:`benchmarks.real_tokens`.

The npm servers are installed with ``npm install`` into one folder; mcp-server-time and mcp-server-sqlite each get a
virtual environment of their own (mcp-server-sqlite needs the 1.x SDK, mcp-server-time the 2.x one) and run with
that environment's interpreter. Installs go to a staging folder renamed into place, so an interrupted one is never
used. Nothing here runs in ``--quick``: the part that uses it is a study, run only when named.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

__all__ = ["NPM_PACKAGES", "PYPI_PACKAGES", "SERVERS", "Installed", "World", "everything_over_http", "install"]

CACHE = Path(os.environ.get("SANDBOX_SERVER_TEST_CACHE", "~/.cache/sandbox-server-tests")).expanduser()
NPM_VERSION = "2026.8.31"
NPM_PACKAGES = {
    name: f"@modelcontextprotocol/server-{name}"
    for name in ("everything", "memory", "filesystem", "sequential-thinking")
}
PYPI_PACKAGES = {
    "time": ("mcp-server-time==2026.10.19", "mcp==2.3.0"),
    "sqlite": ("mcp-server-sqlite==2025.4.25", "mcp==1.30.0"),
}
"""Each Python server's pins: the server and the SDK release it runs on."""
SERVERS = ("everything", "everything_http", "memory", "filesystem", "thinking", "time", "sqlite")
"""The names the servers go by in every configuration, in the order a desktop client lists them."""
SQLITE_MAIN = "from mcp_server_sqlite import main; main()"
"""mcp-server-sqlite has no ``__main__`` module: its entry point, run by its environment's interpreter."""
INSTALL_TIMEOUT_S = 600
HTTP_START_TIMEOUT_S = 30


@dataclass(frozen=True, slots=True)
class Installed:
    """Where the installed servers are."""

    node: str
    npm_folder: Path
    venvs: dict[str, Path]

    def entry(self, package: str) -> Path:
        return self.npm_folder / "node_modules" / NPM_PACKAGES[package] / "dist" / "index.js"

    def python(self, server: str) -> str:
        return str(self.venvs[server] / "bin" / "python")


@dataclass(frozen=True, slots=True)
class World:
    """The state one set of servers works on: a data folder, a memory file and a database, all fresh."""

    folder: Path

    @property
    def files(self) -> Path:
        return self.folder / "files"

    def commands(self, installed: Installed, http_url: str) -> dict[str, dict[str, Any]]:
        """Each server's ``mcpServers`` entry (without policy): command and arguments, or the URL."""
        node = installed.node
        return {
            "everything": {"command": node, "args": [str(installed.entry("everything")), "stdio"]},
            "everything_http": {"url": http_url},
            "memory": {
                "command": node,
                "args": [str(installed.entry("memory"))],
                "env": {"MEMORY_FILE_PATH": str(self.folder / "memory.jsonl")},
            },
            "filesystem": {"command": node, "args": [str(installed.entry("filesystem")), str(self.files)]},
            "thinking": {"command": node, "args": [str(installed.entry("sequential-thinking"))]},
            "time": {"command": installed.python("time"), "args": ["-m", "mcp_server_time", "--local-timezone", "UTC"]},
            "sqlite": {
                "command": installed.python("sqlite"),
                "args": ["-c", SQLITE_MAIN, "--db-path", str(self.folder / "db.sqlite")],
            },
        }


def _run(command: list[str], what: str) -> str:
    """Run an install command; the reason it failed, or ``""``."""
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return f"{what} took more than {INSTALL_TIMEOUT_S} s"
    if completed.returncode != 0:
        return f"{what} failed: {' '.join(completed.stderr.strip().splitlines()[-3:])}"
    return ""


def _staged(folder: Path, build: Any) -> str:
    """Build ``folder`` in a staging folder beside it with ``build(staging)``, then rename it into place."""
    if folder.is_dir():
        return ""
    CACHE.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=folder.name + "-", dir=CACHE))
    reason = build(staging)
    if reason:
        shutil.rmtree(staging, ignore_errors=True)
        return reason
    try:
        staging.rename(folder)
    except OSError:  # another run installed it first
        shutil.rmtree(staging, ignore_errors=True)
    return ""


def install() -> tuple[Installed | None, str]:
    """Install (or find in the cache) every server; ``None`` and why when one cannot be had."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return None, "the npm servers need node and npm on PATH"
    npm_folder = CACHE / f"real-servers-npm-{NPM_VERSION}"
    packages = [f"{package}@{NPM_VERSION}" for package in NPM_PACKAGES.values()]
    reason = _staged(
        npm_folder,
        lambda staging: _run(
            [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", "--no-save", *packages],
            "npm install of the reference servers",
        ),
    )
    if reason:
        return None, reason
    venvs: dict[str, Path] = {}
    for server, pins in PYPI_PACKAGES.items():
        folder = CACHE / ("venv-" + "-".join(pin.replace("==", "-") for pin in pins))

        def build(staging: Path, pins: tuple[str, ...] = pins) -> str:
            made = _run([sys.executable, "-m", "venv", str(staging)], "python -m venv")
            pip = [str(staging / "bin" / "python"), "-m", "pip", "install", "-q", *pins]
            return made or _run(pip, f"pip install {' '.join(pins)}")

        reason = _staged(folder, build)
        if reason:
            return None, reason
        venvs[server] = folder
    installed = Installed(node, npm_folder, venvs)
    missing = [package for package in NPM_PACKAGES if not installed.entry(package).is_file()]
    if missing:
        return None, f"the npm install has no entry point for {', '.join(missing)}"
    return installed, ""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def everything_over_http(installed: Installed) -> AsyncIterator[str]:
    """server-everything in its own Streamable HTTP mode; yields its URL, stops it when the block ends."""
    port = _free_port()
    env = {**os.environ, "PORT": str(port)}
    command = [installed.node, str(installed.entry("everything")), "streamableHttp"]
    process = await anyio.open_process(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        with anyio.fail_after(HTTP_START_TIMEOUT_S):
            while True:
                try:
                    stream = await anyio.connect_tcp("127.0.0.1", port)
                    await stream.aclose()
                    break
                except OSError:
                    if process.returncode is not None:
                        raise RuntimeError("server-everything's HTTP mode exited at start") from None
                    await anyio.sleep(0.1)  # polling the port until it listens; no event tells it
        yield url
    finally:
        process.terminate()
        with anyio.move_on_after(5):
            await process.wait()
        if process.returncode is None:
            process.kill()
