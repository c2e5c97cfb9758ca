"""Code that never finishes, wherever it spins: each call ends as a timeout at its own limit."""

from __future__ import annotations

import anyio
import pytest

from .conftest import Sandbox

pytestmark = pytest.mark.anyio

LIMIT_MS = 300

# A WebAssembly module exporting `spin`, whose body is `loop br 0 end`: a jump back to its own start, forever.
SPINNING_WASM = """
const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,                    // magic, version 1
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00,                                // types: () -> ()
  0x03, 0x02, 0x01, 0x00,                                            // functions: one of type 0
  0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00,        // exports: "spin" is function 0
  0x0a, 0x09, 0x01, 0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b,  // code: loop, br 0, end, end
]);
"""

RUNAWAY_CODE = [
    pytest.param("while (true) {}", id="plain-loop"),
    pytest.param("Promise.resolve().then(() => { while (true) {} }); 'queued'", id="loop-in-a-microtask"),
    pytest.param("await null; while (true) {}", id="loop-in-an-await-continuation"),
    pytest.param("setTimeout(() => { while (true) {} }, 1); 'scheduled'", id="loop-in-a-timer-callback"),
    pytest.param("setInterval(() => {}, 1); 'ticking'", id="interval-never-cleared"),
    pytest.param("(function again() { setTimeout(again, 0) })(); 'rearming'", id="timer-rearming-itself"),
    pytest.param("(function again() { queueMicrotask(again) })(); 'flooding'", id="endless-microtasks"),
    pytest.param("async function f() { await null; return f() } await f()", id="endless-async-recursion"),
    pytest.param("new Promise(() => { for (;;) {} })", id="loop-in-a-promise-executor"),
    pytest.param("({ then() { while (true) {} } })", id="thenable-result-whose-then-loops"),
    # Rendering reads properties through descriptors, but the structured copy of the result calls getters.
    pytest.param("({ get answer() { while (true) {} } })", id="getter-of-the-result-loops"),
    pytest.param("({ nested: [{ get value() { for (;;) {} } }] })", id="nested-getter-of-the-result-loops"),
    pytest.param("({ toJSON() { while (true) {} } })", id="toJSON-of-the-result-loops"),
    pytest.param("new Proxy({}, { ownKeys() { while (true) {} } })", id="proxy-ownKeys-trap-loops"),
    pytest.param("new Proxy({}, { getPrototypeOf() { while (true) {} } })", id="proxy-getPrototypeOf-trap-loops"),
    pytest.param("console.log(new Proxy({}, { getPrototypeOf() { for (;;) {} } }))", id="printing-a-looping-proxy"),
    pytest.param("Error.prepareStackTrace = () => { while (true) {} }; null.x", id="stack-formatting-loops"),
    pytest.param("[3, 2, 1].sort(() => { while (true) {} })", id="sort-comparator-loops"),
    pytest.param("Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)", id="atomics-wait-forever"),
    pytest.param(
        SPINNING_WASM + "new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.spin()",
        id="webassembly-infinite-loop",
    ),
    pytest.param(
        SPINNING_WASM + "const { instance } = await WebAssembly.instantiate(bytes); instance.exports.spin()",
        id="webassembly-infinite-loop-after-await",
    ),
    pytest.param("/(a+)+$/.test('a'.repeat(40) + 'b')", id="catastrophic-regex-backtracking"),
]


@pytest.mark.parametrize("code", RUNAWAY_CODE)
async def test_runaway_code_ends_as_a_timeout_at_its_limit_and_the_server_carries_on(
    sandbox: Sandbox, code: str
) -> None:
    call = await sandbox.run(code, timeout_ms=LIMIT_MS)
    assert call.is_error is True
    assert call.error["kind"] == "timeout", call.error
    assert call.error["limitMs"] == LIMIT_MS
    assert call.structured["timeoutMs"] == LIMIT_MS
    assert f"timeout_ms={LIMIT_MS}" in call.text
    await sandbox.assert_still_serving()


async def test_the_spinning_webassembly_module_is_valid_so_its_case_tests_the_loop(sandbox: Sandbox) -> None:
    code = SPINNING_WASM + "[WebAssembly.validate(bytes), typeof new WebAssembly.Module(bytes) === 'object']"
    call = await sandbox.run(code)
    assert call.structured["result"] == [True, True]


async def test_output_printed_before_a_synchronous_loop_is_kept(sandbox: Sandbox) -> None:
    call = await sandbox.run("console.log('step 1'); console.error('warned'); while (true) {}", timeout_ms=LIMIT_MS)
    assert call.kind == "timeout"
    assert (call.structured["stdout"], call.structured["stderr"]) == ("step 1\n", "warned\n")
    await sandbox.assert_still_serving()


async def test_output_printed_before_a_loop_in_a_callback_is_lost_with_the_killed_worker(sandbox: Sandbox) -> None:
    # The engine cannot interrupt a loop that runs after the call into it returned: only killing the worker
    # process stops it, and the output captured inside its isolate goes with it (see SECURITY.md).
    call = await sandbox.run("console.log('step 1'); await null; while (true) {}", timeout_ms=LIMIT_MS)
    assert call.kind == "timeout"
    assert call.structured["stdout"] == ""
    await sandbox.assert_still_serving()


async def test_a_burst_of_runaway_calls_ends_call_by_call_and_the_server_carries_on(sandbox: Sandbox) -> None:
    codes = {
        "while (true) {}": "timeout",
        "await null; for (;;) {}": "timeout",
        "setTimeout(() => { while (true) {} }, 1)": "timeout",
        "21 * 2": None,
    }
    kinds: list[tuple[str, str | None, str | None]] = []

    async def one(code: str, expected: str | None) -> None:
        call = await sandbox.run(code, timeout_ms=LIMIT_MS)
        kinds.append((code, expected, call.kind))
        if expected is None:
            assert call.structured["result"] == 42

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            for _ in range(3):
                for code, expected in codes.items():
                    group.start_soon(one, code, expected)
    assert len(kinds) == 12
    assert all(expected == got for _, expected, got in kinds), kinds
    await sandbox.assert_still_serving()
    assert sandbox.app.pool.stats()["size"] == 2
