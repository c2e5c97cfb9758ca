"""Attempts to reach beyond the isolate or to leave something behind for the next call.

Each call runs in a fresh V8 isolate that holds the ECMAScript built-ins and the runtime's documented globals
and nothing else: no host objects, no function that reaches Python or mini-racer, no module loader. What one
call changes, the next never sees, whichever worker runs it.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from js_runtime import node_modules, web_modules

from .conftest import Sandbox

pytestmark = pytest.mark.anyio

ECMASCRIPT_GLOBALS = {
    "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack", "Atomics", "BigInt", "BigInt64Array",
    "BigUint64Array", "Boolean", "DataView", "Date", "DisposableStack", "Error", "EvalError", "FinalizationRegistry",
    "Float16Array", "Float32Array", "Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array",
    "Intl", "Iterator", "JSON", "Map", "Math", "NaN", "Number", "Object", "Promise", "Proxy", "RangeError",
    "ReferenceError", "Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "SuppressedError", "Symbol",
    "SyntaxError", "Temporal", "TypeError", "URIError", "Uint16Array", "Uint32Array", "Uint8Array",
    "Uint8ClampedArray", "WeakMap", "WeakRef", "WeakSet", "WebAssembly", "decodeURI", "decodeURIComponent",
    "encodeURI", "encodeURIComponent", "escape", "eval", "globalThis", "isFinite", "isNaN", "parseFloat", "parseInt",
    "undefined", "unescape",
}  # fmt: skip
"""The standard global names V8 defines (a newer V8 may add some: review each before adding it here)."""

RUNTIME_FUNCTIONS = {
    "setTimeout", "clearTimeout", "setInterval", "clearInterval", "queueMicrotask", "structuredClone", "display",
}  # fmt: skip
CONSOLE_METHODS = {
    "log", "info", "debug", "warn", "error", "trace", "dir", "dirxml", "table", "assert", "count", "countReset",
    "time", "timeEnd", "timeLog", "group", "groupCollapsed", "groupEnd",
}  # fmt: skip
WEB_GLOBALS = {name for names, _source in web_modules().values() for name in names}
"""The web-platform globals (URL, TextEncoder, crypto, ...): accessors that compile their module on first use."""
NODE_GLOBALS = {name for module in node_modules().values() for name in module.globals}
"""Node's globals (Buffer, process): accessors that compile their module on first use."""
NODE_FUNCTIONS = {"require", "__import", "__importStatic"}
RUNTIME_GLOBALS = {
    *RUNTIME_FUNCTIONS,
    *WEB_GLOBALS,
    *NODE_GLOBALS,
    *NODE_FUNCTIONS,
    "module",
    "exports",
    "__dirname",
    "__filename",
    "console",
    "input",
}
"""The globals the runtime documents (README, tool description): written in JavaScript, not native. The Node ones
exist only in calls whose code may use them (it names them, or reaches globals without naming them)."""

# Walks everything reachable from the global object (own properties, getters and setters as functions, and
# prototypes) and lists every function that is not native code, by the first path that reaches it.
REACHABLE_FUNCTIONS = r"""
const seen = new Set();
const queue = [[globalThis, 'globalThis']];
const written = [];
for (let i = 0; i < queue.length; i++) {
  const [value, path] = queue[i];
  if (seen.has(value)) continue;
  seen.add(value);
  if (typeof value === 'function' && !/\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(value))) {
    written.push(path);
  }
  for (const key of Reflect.ownKeys(value)) {
    const { value: held, get, set } = Reflect.getOwnPropertyDescriptor(value, key);
    for (const [item, suffix] of [[held, ''], [get, ' (getter)'], [set, ' (setter)']]) {
      if (item !== null && (typeof item === 'object' || typeof item === 'function')) {
        queue.push([item, path + '.' + String(key) + suffix]);
      }
    }
  }
  const prototype = Reflect.getPrototypeOf(value);
  if (prototype !== null) queue.push([prototype, path + '.[[Prototype]]']);
}
({ objects: seen.size, written: written.sort() })
"""

# What a call can observe about the state it starts in; identical in every call when nothing carries over.
FINGERPRINT = r"""
const ids = [setTimeout(() => {}, 1), setTimeout(() => {}, 1), setInterval(() => {}, 1)];
clearInterval(ids[2]);
console.count();
console.count('x');
[
  ids,
  Reflect.ownKeys(globalThis).map(String).sort().join(),
  Reflect.ownKeys(Object.prototype).map(String).sort().join(),
  Reflect.ownKeys(Array.prototype).map(String).sort().join(),
  Error.stackTraceLimit,
  typeof Error.prepareStackTrace,
  new Error('probe').stack,
  Symbol.for('shared').description,
  JSON.stringify({ a: [1] }),
  [].push(1),
  Function.prototype.toString.call(Promise.prototype.then),
  'abc'.slice(1) + /b/.exec('abc').index,
  typeof input,
  typeof __timer_manager,
]
"""

TAMPERING = r"""
const wait = setTimeout;
Object.prototype.polluted = 'yes';
Object.defineProperty(Object.prototype, 'then', { get() { return undefined }, configurable: true });
Array.prototype.push = function () { return -1 };
Array.prototype[Symbol.iterator] = function* () { yield 'hijacked' };
Promise.prototype.then = function () { return this };
Function.prototype.toString = () => 'hijacked';
String.prototype.slice = () => 'hijacked';
RegExp.prototype.exec = () => null;
JSON.stringify = () => '"hijacked"';
globalThis.JSON = { hijacked: true };
console.log = () => {};
globalThis.console = { count() {} };
globalThis.setTimeout = () => -1;
Error.stackTraceLimit = 0;
Error.prepareStackTrace = () => 'hijacked';
Math.random = () => 4;
Symbol.for('left behind');
globalThis.leak = 'secret';
var declared = 'secret';
function declaredFunction() { return 'secret' }
globalThis.sharedBuffer = new SharedArrayBuffer(8);
Object.freeze(Object.prototype);
Object.freeze(Promise.prototype);
await new Promise((resolve) => wait(resolve, 200));
'tampered'
"""


async def test_the_global_object_holds_only_standard_names_and_the_documented_runtime_globals(
    sandbox: Sandbox,
) -> None:
    call = await sandbox.run("Reflect.ownKeys(globalThis).map(String)")
    names = set(call.structured["result"])
    assert names - ECMASCRIPT_GLOBALS - RUNTIME_GLOBALS == set()
    assert RUNTIME_FUNCTIONS | {"console", "input"} <= names
    # mini-racer's own timer shim is never loaded into the workers' isolates.
    absent = await sandbox.run(
        "[typeof __timer_manager, Object.getOwnPropertyDescriptor(globalThis, '__timer_manager')]"
    )
    assert absent.structured["result"] == ["undefined", None]


async def test_the_only_reachable_functions_not_native_are_the_documented_runtime_ones(sandbox: Sandbox) -> None:
    # A function mini-racer or Python offered to JavaScript would be a native function on an unknown path or a
    # non-native one beyond this list; the walk finds both kinds wherever they hang.
    call = await sandbox.run(REACHABLE_FUNCTIONS)
    result = call.structured["result"]
    assert result["objects"] > 500  # the walk did cover the built-ins
    expected = {f"globalThis.{name}" for name in RUNTIME_FUNCTIONS} | {
        f"globalThis.console.{name}" for name in CONSOLE_METHODS
    }
    # The stack formatter that leaves the runtime's frames out of the stacks the code reads.
    expected.add("globalThis.Error.prepareStackTrace")
    # The lazy accessors of the web globals; the walk reads descriptors only, so no module gets compiled.
    expected |= {f"globalThis.{name} ({part})" for name in WEB_GLOBALS for part in ("getter", "setter")}
    # The code reaches globals through Reflect, so the call has Node's require, import and lazy globals too.
    expected |= {f"globalThis.{name}" for name in NODE_FUNCTIONS}
    expected |= {f"globalThis.{name} ({part})" for name in NODE_GLOBALS for part in ("getter", "setter")}
    assert set(result["written"]) == expected


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("Function('return this')()", id="function-constructor"),
        pytest.param("(() => {}).constructor.constructor('return this')()", id="constructor-of-constructor"),
        pytest.param("(async () => {}).constructor('return this')()", id="async-function-constructor"),
        pytest.param("(0, eval)('this')", id="indirect-eval"),
        pytest.param("(function () { return this })()", id="sloppy-this"),
    ],
)
async def test_every_route_to_the_global_object_reaches_the_same_sandboxed_one(sandbox: Sandbox, code: str) -> None:
    call = await sandbox.run(
        f"let g = {code}; if (g instanceof Promise) g = await g; [g === globalThis, Reflect.ownKeys(g).length]"
    )
    baseline = await sandbox.run("[true, Reflect.ownKeys(globalThis).length]")
    assert call.structured["result"] == baseline.structured["result"]


@pytest.mark.parametrize(
    ("code", "kind", "name", "message"),
    [
        pytest.param("await import('x')", "runtime", "Error", "Cannot find module 'x'", id="dynamic-import"),
        pytest.param("await import('data:text/javascript,1')", "runtime", "Error", "Cannot find module", id="data-url"),
        pytest.param("import x from 'lodash'; x", "runtime", "Error", "Cannot find module 'lodash'", id="package"),
        pytest.param(
            "require('child_process').execSync('id')",
            "runtime",
            "Error",
            "runs programs on the host",
            id="process-module",
        ),
        pytest.param("require('net')", "runtime", "Error", "opens network connections", id="network-module"),
        pytest.param("process.env.HOME", "runtime", "Error", "process.env is not available", id="environment"),
        pytest.param("fetch('http://127.0.0.1')", "runtime", "ReferenceError", "fetch is not defined", id="fetch"),
        pytest.param(
            "new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array("
            "[0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 9, 1, 3, 101, 110, 118, 1, 102, 0, 0])))",
            "runtime",
            "TypeError",
            "WebAssembly.Instance(): Imports argument must be present and must be an object",
            id="webassembly-import-from-the-host",
        ),
    ],
)
async def test_modules_and_host_apis_are_absent_and_fail_cleanly(
    sandbox: Sandbox, code: str, kind: str, name: str, message: str
) -> None:
    call = await sandbox.run(code)
    assert (call.error["kind"], call.error["name"]) == (kind, name), call.text
    assert message in call.error["message"]
    await sandbox.assert_still_serving()


async def test_eval_and_shared_memory_work_inside_the_isolate(sandbox: Sandbox) -> None:
    code = """
const cells = new Int32Array(new SharedArrayBuffer(8));
Atomics.add(cells, 0, 5);
[eval('1 + 1'), new Function('a', 'return a * 2')(21), Atomics.load(cells, 0), Atomics.notify(cells, 0)]
"""
    call = await sandbox.run(code)
    assert call.structured["result"] == [2, 42, 5, 0]


async def test_stack_trace_call_sites_hand_out_none_of_the_runtime_functions(sandbox: Sandbox) -> None:
    # The runtime is strict-mode code, whose call sites give no function and no receiver; only the code's own
    # (sloppy) functions come back, and their callers read as null.
    code = r"""
Error.prepareStackTrace = (error, sites) => sites;
let sites, caller;
setTimeout(function tick() { sites = new Error('x').stack; caller = tick.caller; }, 1);
await new Promise((resolve) => setTimeout(resolve, 5));
const given = sites.filter((site) => site.getFunction() !== undefined || site.getThis() !== undefined);
[sites.length > 1, given.map((site) => site.getFunction().name), caller]
"""
    call = await sandbox.run(code)
    assert call.structured["result"] == [True, ["tick"], None]


async def test_a_fresh_call_observes_the_same_starting_state_every_time(sandbox: Sandbox) -> None:
    # No counter of runs, timers or console labels survives from earlier calls (the warm-up run included).
    fingerprints = [(await sandbox.run(FINGERPRINT)).structured["result"] for _ in range(6)]
    assert fingerprints[0][0] == [1, 2, 3]
    assert all(fingerprint == fingerprints[0] for fingerprint in fingerprints)


async def test_calls_that_waited_in_the_queue_observe_the_same_starting_state(sandbox: Sandbox) -> None:
    # While calls wait, a worker prepares its next isolate without the warm-up run; the code cannot tell.
    baseline = (await sandbox.run(FINGERPRINT)).structured["result"]
    fingerprints: list[Any] = []

    async def fingerprint() -> None:
        fingerprints.append((await sandbox.run(FINGERPRINT)).structured["result"])

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            for _ in range(8):
                group.start_soon(fingerprint)
    assert len(fingerprints) == 8
    assert all(found == baseline for found in fingerprints), fingerprints


async def test_tampering_on_every_worker_leaves_nothing_for_the_next_calls(sandbox: Sandbox) -> None:
    baseline = (await sandbox.run(FINGERPRINT)).structured
    # Two tampering calls that overlap in time occupy both workers.
    outcomes: list[Any] = []

    async def tamper() -> None:
        outcomes.append((await sandbox.run(TAMPERING)).structured["result"])

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            for _ in range(2):
                group.start_soon(tamper)
    assert outcomes == ["tampered", "tampered"]

    checks: list[Any] = []

    async def check() -> None:
        structured = (await sandbox.run(FINGERPRINT)).structured
        leftovers = await sandbox.run(
            "[typeof leak, typeof declared, typeof declaredFunction, typeof sharedBuffer, ({}).polluted, "
            "Math.random() < 1, Object.isFrozen(Object.prototype), [...[1, 2]].length]"
        )
        checks.append((structured, leftovers.structured["result"]))

    async with anyio.create_task_group() as group:
        for _ in range(4):
            group.start_soon(check)
    for fingerprint, leftovers in checks:
        assert (fingerprint["result"], fingerprint["stdout"]) == (baseline["result"], baseline["stdout"])
        assert leftovers == ["undefined"] * 4 + [None, True, False, 2]
    await sandbox.assert_still_serving()


async def test_replacing_push_on_a_frozen_array_prototype_leaves_an_async_call_its_answer(sandbox: Sandbox) -> None:
    # mini-racer builds argument lists with the isolate's Array.prototype.push; once code has run, the worker
    # calls into the isolate only without arguments, and the outcome comes back through a notification
    # whose arguments mini-racer copies natively.
    code = "Array.prototype.push = function () { return 0 }; Object.freeze(Array.prototype); await null; 'done'"
    call = await sandbox.run(code, timeout_ms=2000)
    assert call.is_error is False, call.text
    assert call.structured["result"] == "done"
    await sandbox.assert_still_serving()
