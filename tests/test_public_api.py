"""The package's public names are deliberate: pinned here so that a change to them is a visible decision."""

from __future__ import annotations

import subprocess
import sys

import sandbox_server


def test_the_exported_names_are_exactly_these() -> None:
    assert sorted(sandbox_server.__all__) == ["Settings", "__version__", "build_server", "main"]
    for name in sandbox_server.__all__:
        assert getattr(sandbox_server, name) is not None


def test_the_version_comes_from_the_metadata_of_the_distribution_named_in_pyproject() -> None:
    import tomllib
    from importlib.metadata import distribution
    from pathlib import Path

    from sandbox_server.identity import DISTRIBUTION

    pyproject = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["name"] == DISTRIBUTION
    installed = distribution(DISTRIBUTION)
    assert sandbox_server.__version__ == installed.version == pyproject["project"]["version"]
    assert {(entry.name, entry.value) for entry in installed.entry_points} >= {
        ("sandbox-server", "sandbox_server.cli:main")
    }


def test_no_install_line_or_message_names_the_other_projects_distribution() -> None:
    """``sandbox-server`` on the package index is another project: an install line with that name fetches it."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    texts = [root / "README.md", root / "SECURITY.md", root / "pyproject.toml", *(root / "docs").glob("*.md")]
    texts += [*(root / "sandbox_server").rglob("*.py"), *(root / "benchmarks").rglob("*.py")]
    wrong = re.compile(r"sandbox-server\[|(?:pip|pipx|uv pip) install\s+['\"]?sandbox-server\b")
    found = [f"{path.relative_to(root)}: {match[0]}" for path in texts for match in wrong.finditer(path.read_text())]
    assert found == []


def test_a_worker_process_does_not_import_the_mcp_sdk() -> None:
    probe = "import sys, sandbox_server.sandbox.worker; print('mcp' in sys.modules, 'pydantic' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["False", "False"]
