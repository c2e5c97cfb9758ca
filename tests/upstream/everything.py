"""The reference server ``@modelcontextprotocol/server-everything``, installed from npm once into a cache folder.

A test that wants it calls :func:`everything_command` and skips with the reason when it is ``None`` (no Node, no
npm, no registry). The version is pinned so a new release cannot change what the test sees unannounced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["EVERYTHING_PACKAGE", "EVERYTHING_VERSION", "everything_command"]

EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything"
EVERYTHING_VERSION = "2026.8.31"
CACHE = Path(os.environ.get("SANDBOX_SERVER_TEST_CACHE", "~/.cache/sandbox-server-tests")).expanduser()
INSTALL_TIMEOUT_S = 300


def everything_command() -> tuple[list[str] | None, str]:
    """The command that runs server-everything over stdio, or ``None`` and why it cannot be had."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return None, "server-everything needs node and npm on PATH"
    folder = CACHE / f"everything-{EVERYTHING_VERSION}"
    entry = folder / "node_modules" / EVERYTHING_PACKAGE / "dist" / "index.js"
    if not entry.is_file():
        CACHE.mkdir(parents=True, exist_ok=True)
        # Installed beside the cache entry and renamed into place, so an interrupted install is never used.
        staging = Path(tempfile.mkdtemp(prefix="everything-", dir=CACHE))
        try:
            completed = subprocess.run(
                [npm, "install", "--prefix", str(staging), "--no-audit", "--no-fund", "--no-save",
                 f"{EVERYTHING_PACKAGE}@{EVERYTHING_VERSION}"],
                capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            shutil.rmtree(staging, ignore_errors=True)
            return None, f"npm install of {EVERYTHING_PACKAGE} took more than {INSTALL_TIMEOUT_S} s"
        if completed.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            tail = " ".join(completed.stderr.strip().splitlines()[-3:])
            return None, f"npm install of {EVERYTHING_PACKAGE} failed: {tail}"
        try:
            staging.rename(folder)
        except OSError:  # another run installed it first
            shutil.rmtree(staging, ignore_errors=True)
    if not entry.is_file():
        return None, f"{EVERYTHING_PACKAGE} installed without {entry.relative_to(folder)}"
    return [node, str(entry), "stdio"], ""
