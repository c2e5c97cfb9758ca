"""The package's public names are deliberate: pinned here so that a change to them is a visible decision."""

from __future__ import annotations

import subprocess
import sys

import sandbox_server


def test_the_exported_names_are_exactly_these() -> None:
    assert sorted(sandbox_server.__all__) == ["Settings", "__version__", "build_server", "main"]
    for name in sandbox_server.__all__:
        assert getattr(sandbox_server, name) is not None


def test_the_version_comes_from_package_metadata() -> None:
    from importlib.metadata import version

    assert sandbox_server.__version__ == version("sandbox-server")


def test_a_worker_process_does_not_import_the_mcp_sdk() -> None:
    probe = "import sys, sandbox_server.sandbox.worker; print('mcp' in sys.modules, 'pydantic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "False"]
