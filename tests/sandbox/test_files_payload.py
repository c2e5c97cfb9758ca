"""A files payload crosses the pool and the worker intact and becomes the global ``files``."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from sandbox_server.data.files import FileRequest, FilesLimits, build_payload, select
from sandbox_server.data.folder import DataFolder
from sandbox_server.sandbox import Job, WorkerPool

from .conftest import WAIT_S

pytestmark = pytest.mark.anyio


async def test_a_payload_from_the_folder_becomes_the_files_global(solo: WorkerPool, tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text('name,note\n"Zoë","say ""hi""\n\\\\ \\u2028"\n')
    (tmp_path / "b.txt").write_text("\U0001f600\n")
    folder = DataFolder(tmp_path)
    selected = select(folder, [FileRequest("*.csv"), FileRequest("b.txt")], FilesLimits(10, 10_000))
    payload = build_payload(folder, selected, 10_000)
    code = "[files['a.csv'].rows, files['b.txt'].text, Object.keys(files)]"
    with anyio.fail_after(WAIT_S):
        outcome = await solo.run(Job(code=code, files_payload=payload))
    assert outcome["error"] is None, outcome
    assert outcome["result"] == [
        [{"name": "Zoë", "note": 'say "hi"\n\\\\ \\u2028'}],
        "\U0001f600\n",
        ["a.csv", "b.txt"],
    ]


async def test_the_next_job_on_the_same_worker_sees_no_files(solo: WorkerPool) -> None:
    manifest = [{"name": "x.txt", "size": 1, "type": "text/plain", "format": "text", "text": [0, 1]}]
    with anyio.fail_after(WAIT_S):
        first = await solo.run(Job(code="files['x.txt'].text", files_payload=json.dumps(manifest) + "\nx"))
        second = await solo.run(Job(code="typeof files"))
    assert first["result"] == "x"
    assert second["result"] == "undefined"
