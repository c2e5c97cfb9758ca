"""Host memory of the ``files`` payload: bounded by the bytes read, with the factor ``build_payload`` documents.

A 16 MiB CSV of one short column once took the server from 72 to 1,144 MiB: every row became a Python list before
any JSON was written. Each case builds the payload of one 16 MiB file in a fresh interpreter and reads how far its
peak resident size rose meanwhile.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sandbox_server.data.files import PEAK_MEMORY_FACTOR

FILE_BYTES = 16 * 1024 * 1024

MEASURE = """
import json, resource, sys
from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
from sandbox_server.data.folder import DataFolder

folder = DataFolder(sys.argv[1])
limit = int(sys.argv[4])
selected = select(folder, [FileRequest(sys.argv[2], sys.argv[3])], FilesLimits(max_files=1, max_bytes=limit))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
payload = build_payload(folder, selected, limit)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"grown": (after - before) * 1024, "chars": len(payload)}))
"""


def one_column(path: Path) -> None:
    path.write_text("x\n" * (FILE_BYTES // 2))


def wide(path: Path) -> None:
    row = ",".join(str(column % 10) for column in range(200)) + "\n"
    path.write_text(row * (FILE_BYTES // len(row)))


def json_document(path: Path) -> None:
    item = json.dumps({"id": 12345, "name": "item 12345", "value": 6172.5}) + ","
    path.write_text("[" + item * ((FILE_BYTES - 2) // len(item)) + "0]")


def random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(16).randbytes(FILE_BYTES))


@pytest.mark.parametrize(
    ("name", "form", "write"),
    [
        pytest.param("column.csv", "auto", one_column, id="one-column-csv"),
        pytest.param("wide.csv", "auto", wide, id="wide-csv"),
        pytest.param("document.json", "auto", json_document, id="json"),
        pytest.param("blob.bin", "bytes", random_bytes, id="bytes"),
    ],
)
def test_building_the_payload_of_a_16_mib_file_grows_the_process_by_at_most_the_documented_factor(
    tmp_path: Path, name: str, form: str, write: Callable[[Path], None]
) -> None:
    write(tmp_path / name)
    size = (tmp_path / name).stat().st_size
    assert FILE_BYTES * 0.99 <= size <= FILE_BYTES
    finished = subprocess.run(
        [sys.executable, "-c", MEASURE, str(tmp_path), name, form, str(FILE_BYTES)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr[-2000:]
    measured = json.loads(finished.stdout)
    assert measured["chars"] >= size  # the payload holds the file, so the bound is not met by leaving it out
    assert measured["grown"] <= PEAK_MEMORY_FACTOR * size, f"grew by {measured['grown'] / size:.1f} times the file"


SERVER_PEAK_LIMIT = 300 * 1024 * 1024
"""The whole server's peak resident size after a call with one 16 MiB CSV (it was 325 MiB: the payload was held
three times while it was sent to the worker, as text, as its encoding, and as the pipe transport's copy)."""


@pytest.mark.anyio
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak resident size from /proc")
async def test_a_call_with_a_16_mib_csv_keeps_the_servers_peak_resident_size_under_300_mib(tmp_path: Path) -> None:
    import anyio

    from benchmarks.procfs import peak_rss_bytes

    from .wire import open_session

    one_column(tmp_path / "column.csv")
    async with open_session(workers=1, SANDBOX_DATA_DIR=str(tmp_path)) as session:
        with anyio.fail_after(120):
            warm = await session.call("execute_js", {"code": "1"})
            assert warm["result"]["structuredContent"]["result"] == 1
            started = peak_rss_bytes(session.pid)
            # The text only: reading the rows too would take the code past its own memory limit.
            reply = await session.call(
                "execute_js", {"code": "files['column.csv'].text.length", "files": ["column.csv"], "timeout_ms": 60_000}
            )
            peak = peak_rss_bytes(session.pid)
    assert reply["result"]["structuredContent"]["result"] == FILE_BYTES
    print(f"\nserver peak resident size: {started / 2**20:.0f} MiB before the call, {peak / 2**20:.0f} MiB after")
    assert 0 < peak < SERVER_PEAK_LIMIT, f"peak {peak / 2**20:.0f} MiB"
