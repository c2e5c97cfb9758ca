"""What a user would otherwise do: run each snippet in a fresh ``node`` process."""

from __future__ import annotations

import shutil
import subprocess
import time

__all__ = ["node_command", "node_run", "node_version"]


def node_command() -> str | None:
    """The ``node`` executable on PATH, if any."""
    return shutil.which("node")


def node_version(node: str) -> str:
    return subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout.strip()


def node_run(node: str, code: str, *, print_result: bool) -> float:
    """Milliseconds from spawning ``node -p CODE`` (or ``-e`` when the result need not be printed) to its exit."""
    started = time.perf_counter()
    subprocess.run([node, "-p" if print_result else "-e", code], capture_output=True, check=True)
    return (time.perf_counter() - started) * 1000
