"""The effects test server (``servers/effects.py``) from a test's side: its config entry over stdio or Streamable
HTTP, and what it wrote down about each call."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

__all__ = ["EVENT_WAIT_S", "effects_server", "ended", "events", "wait_for"]

REPO = Path(__file__).resolve().parents[2]
EVENT_WAIT_S = 20.0
"""Upper bound of any wait for an event, far above what each needs (the slow tools take 3 s; a cancellation
arrives in milliseconds)."""
ENDINGS = frozenset({"cancelled", "effect", "finished"})


def events(path: Path, call_id: str | None = None) -> list[dict[str, Any]]:
    """Every event written so far (of one call, with ``call_id``), in order."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [json.loads(line) for line in lines if line.strip()]
    return [event for event in found if call_id is None or event["id"] == call_id]


async def wait_for(path: Path, call_id: str, kinds: frozenset[str] | set[str], seconds: float = EVENT_WAIT_S) -> Any:
    """The first event of ``call_id`` among ``kinds``, once the server has written it (at most ``seconds``)."""
    with anyio.fail_after(seconds):
        while True:
            for event in events(path, call_id):
                if event["event"] in kinds:
                    return event
            await anyio.sleep(0.01)  # polling a file another process appends to


async def ended(path: Path, call_id: str) -> Any:
    """How the call ``call_id`` ended upstream: its ``cancelled``, ``effect`` or ``finished`` event."""
    return await wait_for(path, call_id, ENDINGS)


@contextmanager
def effects_server(transport: str, folder: Path, **policy: Any) -> Iterator[tuple[dict[str, Any], Path]]:
    """The effects server over ``transport`` ("stdio" or "http"): its config entry (with ``policy``, e.g.
    ``sideEffects``) and the file of its events. Over HTTP it runs until the block ends."""
    log = folder / f"effects-{uuid.uuid4().hex}.jsonl"
    module = ["-m", "tests.upstream.servers.effects", "--events", str(log)]
    if transport == "stdio":
        yield {"command": sys.executable, "args": module, "cwd": str(REPO), **policy}, log
        return
    port_file = folder / f"effects-{uuid.uuid4().hex}.port"
    process = subprocess.Popen([sys.executable, *module, "--http", "0", "--port-file", str(port_file)], cwd=REPO)
    try:
        deadline = time.monotonic() + 30
        while not port_file.exists():
            assert process.poll() is None, "the effects server exited at start"
            assert time.monotonic() < deadline, "the effects server did not start"
            time.sleep(0.02)
        yield {"url": f"http://127.0.0.1:{int(port_file.read_text())}/mcp", **policy}, log
    finally:
        process.terminate()
        process.wait(timeout=10)
