"""The load-balancer section: its HAProxy configuration is one HAProxy accepts, and without HAProxy the section is
skipped with a note instead of failing the run."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks import balancer
from benchmarks.plan import QUICK
from benchmarks.progress import Progress


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_the_generated_configuration_passes_haproxys_own_check(tmp_path: Path) -> None:
    config = tmp_path / "lb.cfg"
    config.write_text(balancer.haproxy_config(18080, [18081, 18082, 18083]), encoding="utf-8")
    checked = subprocess.run(["haproxy", "-c", "-f", str(config)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert config.read_text(encoding="utf-8").count("server replica") == 3


@pytest.mark.anyio
async def test_without_haproxy_the_section_is_skipped_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(balancer.shutil, "which", lambda name: None)
    section = await balancer.measure(QUICK, Progress(1, stream=io.StringIO()))
    assert section.rows == []
    assert section.notes == [balancer.NO_HAPROXY] and "apt-get install -y haproxy" in section.notes[0]
