"""CPU time read from /proc counts processes that have already exited, once they are waited for."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from benchmarks import procfs

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

BURN = "import time\nwhile time.process_time() < 0.3: pass"


def test_a_child_that_exited_still_counts_in_its_parents_tree() -> None:
    before = procfs.tree_cpu_ms(os.getpid(), include_root=False)
    subprocess.run([sys.executable, "-c", BURN], check=True, timeout=60)
    after = procfs.tree_cpu_ms(os.getpid(), include_root=False)
    # The child used at least 300 ms of CPU; clock ticks are 10 ms.
    assert after - before >= 290


def test_a_process_that_is_gone_reads_as_no_cpu() -> None:
    # Linux never hands out pids above 2**22.
    assert procfs.reaped_cpu_ms(2**22 + 1) == 0.0
    assert procfs.cpu_ms(2**22 + 1) == 0.0
