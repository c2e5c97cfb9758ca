"""The machine and the software versions a run measured, printed at the top of the report."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from benchmarks import engine, node
from sandbox_server.identity import DISTRIBUTION

__all__ = ["describe"]


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def _source_state() -> str:
    """The commit the server's code comes from, and whether the working tree differs from it."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True)
    except OSError:
        return "unknown (no git)"
    if head.returncode != 0:
        return "unknown (not a git checkout)"
    return head.stdout.strip() + (" with uncommitted changes" if dirty.stdout.strip() else "")


def describe() -> dict[str, str]:
    """Facts about this machine and the stack under test."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    command = node.node_command()
    return {
        "cpu": _cpu_model(),
        "cpus": f"{os.cpu_count()} ({usable} usable by this process)",
        "os": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        **engine.versions(),
        "mcp": _version("mcp"),
        "sandbox-server": f"{_version(DISTRIBUTION)}, source {_source_state()}",
        "node": node.node_version(command) if command else "not on PATH",
        "SANDBOX_* settings": " ".join(f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith("SANDBOX_"))
        or "defaults",
    }
