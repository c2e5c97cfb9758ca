"""Code that takes memory in every way JavaScript offers: each call ends as a memory error, or as the RangeError
V8 itself gives where a size is beyond what it allows, and the worker's memory stays bounded by the OS."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import anyio
import pytest

from sandbox_server import platform
from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.process import describe_death

from .conftest import RESERVES_ONLY, SMALL_MEMORY_MB, Sandbox

pytestmark = pytest.mark.anyio

LIMIT_MS = 20_000
"""Time enough for every bomb to reach the memory limit first (the slowest takes about 3 s)."""

MEMORY_BOMBS = [
    pytest.param("const a = []; while (true) a.push(new Array(1e6).fill(1));", id="heap-growth-by-arrays"),
    pytest.param("const a = []; while (true) a.push({ n: a.length });", id="heap-growth-by-small-objects"),
    pytest.param("let s = 'x'; while (true) { s += s; s.indexOf('y'); }", id="string-doubling-flattened"),
    pytest.param("const s = 'x'.repeat(2 ** 29 - 24); s.indexOf('y')", id="longest-flat-string"),
    pytest.param("const s = '\\u20ac'.repeat(2 ** 28); s.indexOf('y')", id="half-gigabyte-two-byte-string"),
    # repeat() builds a rope that costs nothing; rendering the result has to read it.
    pytest.param("'x'.repeat(2 ** 29 - 24)", id="longest-string-as-the-result"),
    pytest.param("new Array(1e9).fill(0)", id="array-of-a-billion-zeros"),
    pytest.param("const a = []; for (let i = 0; ; i++) a[i * 1024] = i;", id="sparse-dictionary-mode-array"),
    pytest.param("const b = []; while (true) b.push(new ArrayBuffer(64 * 2 ** 20));", id="arraybuffer-bomb"),
    pytest.param("new ArrayBuffer(2 ** 32)", id="one-four-gigabyte-arraybuffer"),
    pytest.param("new Float64Array(2 ** 28)", id="two-gigabyte-typed-array"),
    pytest.param(
        "const b = []; while (true) b.push(new SharedArrayBuffer(64 * 2 ** 20));", id="sharedarraybuffer-bomb"
    ),
    pytest.param(
        "const b = new ArrayBuffer(1, { maxByteLength: 2 ** 32 }); b.resize(2 ** 32)",
        id="resizable-buffer-grown",
        marks=RESERVES_ONLY,
    ),
    pytest.param(
        "const b = new SharedArrayBuffer(1, { maxByteLength: 2 ** 32 }); b.grow(2 ** 32)",
        id="growable-shared-buffer",
        marks=RESERVES_ONLY,
    ),
    pytest.param(
        "const b = new ArrayBuffer(40 * 2 ** 20); const keep = []; while (true) keep.push(structuredClone(b));",
        id="structured-clones-of-a-buffer",
    ),
    pytest.param(
        "const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 }); while (true) m.grow(1024);",
        id="webassembly-memory-grown",
        marks=RESERVES_ONLY,
    ),
    pytest.param(
        "const ms = []; while (true) ms.push(new WebAssembly.Memory({ initial: 1024 }));",
        id="many-webassembly-memories",
    ),
    pytest.param(
        "new WebAssembly.Memory({ initial: 65536 })", id="four-gigabyte-webassembly-memory", marks=RESERVES_ONLY
    ),
    pytest.param(
        "const b = new ArrayBuffer(1, { maxByteLength: 2 ** 32 }); b.resize(2 ** 32); new Uint8Array(b).fill(1)",
        id="resizable-buffer-grown-and-used",
    ),
    pytest.param(
        "const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 });"
        " while (true) { m.grow(1024); new Uint8Array(m.buffer).fill(1); }",
        id="webassembly-memory-grown-and-used",
    ),
    pytest.param(
        "setTimeout(() => { const a = []; while (true) a.push(new Array(1e6).fill(1)); }, 1); 'scheduled'",
        id="heap-growth-in-a-timer-callback",
    ),
    pytest.param(
        "Promise.resolve().then(() => { const a = []; while (true) a.push(new Array(1e6).fill(1)); }); 'queued'",
        id="heap-growth-in-a-microtask",
    ),
    pytest.param(
        "const keep = []; while (true) { keep.push(new Array(1e5).fill(keep.length)); "
        "await new Promise(r => setTimeout(r, 1)); }",
        id="memory-kept-across-awaited-timers",
    ),
    pytest.param(
        "const keep = []; while (true) { keep.push(new Array(1e5).fill(keep.length)); await null; }",
        id="memory-kept-across-awaits",
    ),
]


@pytest.mark.parametrize("code", MEMORY_BOMBS)
async def test_memory_bombs_end_as_memory_errors_and_the_server_carries_on(small_sandbox: Sandbox, code: str) -> None:
    call = await small_sandbox.run(code, timeout_ms=LIMIT_MS)
    assert call.is_error is True
    assert call.error["kind"] == "memory", call.error
    assert call.error["limitMb"] == SMALL_MEMORY_MB
    assert f"{SMALL_MEMORY_MB} MiB" in call.text
    await small_sandbox.assert_still_serving()


V8_REFUSALS = [
    pytest.param("let s = 'x'; while (true) s += s;", "Invalid string length", id="string-doubling"),
    pytest.param("'x'.repeat(2 ** 29 - 23)", "Invalid string length", id="string-one-longer-than-v8-allows"),
    pytest.param("new Array(2 ** 32)", "Invalid array length", id="array-longer-than-v8-allows"),
    pytest.param(
        "new ArrayBuffer(1, { maxByteLength: 2 ** 53 })", "Invalid array buffer max length", id="buffer-max-too-large"
    ),
]


@pytest.mark.parametrize(("code", "message"), V8_REFUSALS)
async def test_sizes_v8_does_not_allow_are_range_errors_the_code_can_catch(
    small_sandbox: Sandbox, code: str, message: str
) -> None:
    # V8 refuses these before allocating anything (a string is at most 2**29 - 24 units long): the code
    # asked for something impossible, which is its own error, not the memory limit's.
    call = await small_sandbox.run(code, timeout_ms=LIMIT_MS)
    assert (call.error["kind"], call.error["name"], call.error["message"]) == ("runtime", "RangeError", message)
    caught = await small_sandbox.run(f"try {{ {code} }} catch (e) {{ e instanceof RangeError }}", timeout_ms=LIMIT_MS)
    assert caught.structured["result"] is True
    await small_sandbox.assert_still_serving()


async def test_both_workers_bombed_at_once_end_as_memory_errors(small_sandbox: Sandbox) -> None:
    codes = [
        "const b = []; while (true) b.push(new ArrayBuffer(64 * 2 ** 20));",
        "const a = []; while (true) a.push(new Array(1e6).fill(1));",
    ] * 2
    kinds: list[str | None] = []

    async def bomb(code: str) -> None:
        kinds.append((await small_sandbox.run(code, timeout_ms=LIMIT_MS)).kind)

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            for code in codes:
                group.start_soon(bomb, code)
    assert kinds == ["memory"] * len(codes)
    await small_sandbox.assert_still_serving()


def _data_limit(pid: int) -> tuple[int, int]:
    limits = Path(f"/proc/{pid}/limits").read_text()
    match = re.search(r"^Max data size\s+(\d+)\s+(\d+)\s+bytes\s*$", limits, re.MULTILINE)
    assert match is not None, f"no finite data size limit for worker {pid}:\n{limits}"
    return int(match.group(1)), int(match.group(2))


def _data_size(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmData:\s+(\d+) kB$", status, re.MULTILINE)
    assert match is not None
    return int(match.group(1)) * 1024


@pytest.mark.skipif(platform.NAME == "portable", reason="the portable platform sets no operating-system data limit")
async def test_every_worker_runs_under_a_data_size_limit_a_little_above_its_allowance(small_sandbox: Sandbox) -> None:
    await small_sandbox.assert_still_serving()
    pids = small_sandbox.app.pool.pids()
    assert len(pids) == 2
    limits = SandboxLimits(memory_limit_mb=SMALL_MEMORY_MB)
    # What the worker may add to its size once V8 is up: the heap up to V8's own ceiling, as much again as the
    # limit in buffers outside it, and room for itself (see worker._limit_data_segment).
    allowance = (limits.heap_ceiling_mb + limits.memory_limit_mb + 96) * 2**20
    for pid in pids:
        soft, hard = _data_limit(pid)
        assert soft == hard
        assert soft - allowance < _data_size(pid) < soft


async def test_one_buffer_may_pass_the_heap_limit_but_not_the_workers_allowance(small_sandbox: Sandbox) -> None:
    # The memory limit governs the V8 heap. Memory outside it (buffers) and single objects the heap admits
    # before its next garbage collection draw on the worker's OS allowance instead, a few times the limit.
    # Filled, so that the buffers are memory in use on every platform (a data limit refuses them either way).
    allowed = await small_sandbox.run("new Uint8Array(200 * 2 ** 20).fill(1).byteLength", timeout_ms=LIMIT_MS)
    assert allowed.structured["result"] == 200 * 2**20
    refused = await small_sandbox.run("new Uint8Array(300 * 2 ** 20).fill(1).byteLength", timeout_ms=LIMIT_MS)
    assert refused.kind == "memory"
    await small_sandbox.assert_still_serving()


@pytest.mark.parametrize(
    ("returncode", "stderr", "kind"),
    [
        pytest.param(-signal.SIGTRAP, [], "memory", id="silent-trap"),
        pytest.param(-signal.SIGTRAP, ["# Fatal error in , line 0", "# Check failed: x."], "crashed", id="v8-check"),
        pytest.param(-signal.SIGSEGV, [], "crashed", id="segfault"),
    ],
)
def test_a_worker_that_traps_without_a_fatal_report_is_counted_as_out_of_memory(
    returncode: int, stderr: list[str], kind: str
) -> None:
    # PartitionAlloc, which allocates V8's own objects, traps without a word when RLIMIT_DATA leaves it no
    # memory; V8 writes a '# Fatal' report before any trap of its own. The log keeps the exit status either way.
    assert describe_death(returncode, stderr, SMALL_MEMORY_MB)["kind"] == kind
