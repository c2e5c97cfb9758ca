"""The code runs exactly once, in exactly one of its two forms, and the kind of its error is what happened.

A script that fails with a SyntaxError is tried again as the body of an async function only when the script did
not parse, so none of it ran; the async body is compiled as a function body alone, so no text can close it and run
outside it; and an error counts as running out of memory only when V8 itself threw it for memory it could not have,
never because its message says so.
"""

from __future__ import annotations

import pytest

from .conftest import RESERVES_ONLY, Sandbox

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(
            "// return\nconsole.log('ran'); Error.stackTraceLimit = 1; JSON.parse('{oops')", id="short-stack-json"
        ),
        pytest.param("console.log('ran'); Error.stackTraceLimit = 0; JSON.parse('{oops') // return", id="no-stack"),
        pytest.param("let a = 1;\nconsole.log('ran');\nfunction f() { return a; }\nJSON.parse('{')", id="declarations"),
        pytest.param("console.log('ran'); throw new SyntaxError('Illegal return statement') // return", id="thrown"),
        pytest.param("'use strict';\nconsole.log('ran');\nnew Function('return 1 +')() // return", id="strict"),
        pytest.param(
            "Error.prepareStackTrace = () => 'forged';\nconsole.log('ran'); JSON.parse('{') // return", id="formatter"
        ),
    ],
)
async def test_a_syntax_error_thrown_while_running_ends_the_run_and_nothing_runs_twice(
    sandbox: Sandbox, code: str
) -> None:
    call = await sandbox.run(code)
    assert call.kind == "runtime", call.text
    assert call.structured["stdout"] == "ran\n"
    assert call.structured["async"] is False
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("return 1 }); console.log('ran'); (function () {", id="return"),
        pytest.param("await 1 }); console.log('ran'); (async function () {", id="await"),
        pytest.param("return 1\n}\n)\nconsole.log('ran')\n;(function () {", id="lines"),
        pytest.param("const x = await 1; x }) ; console.log('ran') ; (async () => {", id="completion"),
    ],
)
async def test_code_cannot_close_the_async_body_and_run_outside_it(sandbox: Sandbox, code: str) -> None:
    call = await sandbox.run(code)
    assert call.kind == "syntax", call.text
    assert call.structured["stdout"] == ""
    await sandbox.assert_still_serving()


async def test_a_script_that_does_not_parse_but_runs_as_an_async_body_runs_once(sandbox: Sandbox) -> None:
    call = await sandbox.run("console.log('ran');\nreturn 6 * 7")
    assert call.structured["result"] == 42
    assert call.structured["stdout"] == "ran\n"
    assert call.structured["async"] is True


async def test_a_strict_script_with_a_strict_only_parse_error_is_a_syntax_error(sandbox: Sandbox) -> None:
    call = await sandbox.run("'use strict';\nconsole.log('ran');\nwith (Math) { max(1, 2) }\nfunction f() { return 1 }")
    assert call.kind == "syntax", call.text
    assert call.structured["stdout"] == ""


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("throw new RangeError('Array buffer allocation failed')", id="thrown"),
        pytest.param("throw new RangeError('WebAssembly.Memory(): could not allocate memory')", id="wasm-words"),
        pytest.param("throw new RangeError('ArrayBuffer.prototype.resize: Out of memory')", id="resize-words"),
        pytest.param("throw ['Array buffer allocation failed'].map(RangeError)[0]", id="made-by-a-built-in"),
        pytest.param("throw Reflect.construct(RangeError, ['Array buffer allocation failed'])", id="reflect-construct"),
        pytest.param(
            "function ArrayBuffer() { throw new RangeError('Array buffer allocation failed'); }\nnew ArrayBuffer(1)",
            id="own-function-named-like-the-built-in",
        ),
        pytest.param(
            "new WebAssembly.Memory({ get initial() {"
            " throw new RangeError('WebAssembly.Memory(): could not allocate memory'); } })",
            id="descriptor-getter",
        ),
        pytest.param(
            "new WebAssembly.Memory({ initial: 1 }).grow({ valueOf() {"
            " throw new RangeError('WebAssembly.Memory.grow(): Unable to grow instance memory'); } })",
            id="grow-argument",
        ),
        pytest.param(
            "new Uint8Array({ get length() { throw new RangeError('Array buffer allocation failed'); } })",
            id="typed-array-source-getter",
        ),
    ],
)
async def test_words_of_an_allocation_failure_do_not_make_an_error_a_memory_error(sandbox: Sandbox, code: str) -> None:
    call = await sandbox.run(code)
    assert call.kind == "runtime", call.text
    assert call.error["name"] == "RangeError"
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("new ArrayBuffer(2 ** 34)", id="array-buffer"),
        pytest.param("new Float64Array(2 ** 31)", id="typed-array"),
        pytest.param("new WebAssembly.Memory({ initial: 30000 })", id="webassembly-memory", marks=RESERVES_ONLY),
        pytest.param(
            "const m = new WebAssembly.Memory({ initial: 1 }); m.grow(30000)",
            id="webassembly-grow",
            marks=RESERVES_ONLY,
        ),
        pytest.param(
            "try { new ArrayBuffer(2 ** 34) } catch (e) { console.log('caught'); throw e }", id="caught-and-rethrown"
        ),
    ],
)
async def test_memory_outside_the_heap_that_cannot_be_had_is_still_a_memory_error(sandbox: Sandbox, code: str) -> None:
    call = await sandbox.run(code)
    assert call.kind == "memory", call.text
    await sandbox.assert_still_serving()
