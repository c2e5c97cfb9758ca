"""Attempts to forge a call's outcome from inside the isolate, or to bend the runtime's own bookkeeping.

The code shares its isolate with the runtime that renders its output, so it can change every prototype the
runtime's values would inherit from, and it runs again (getters, ``toJSON``, Proxy traps) while its result is
written. None of that may reach the worker's channel, change what the outcome says about the code, or push the
outcome past the output cap: the outcome always describes what the code really did.
"""

from __future__ import annotations

import json

import pytest

from sandbox_server.settings import DEFAULT_OUTPUT_CAP_BYTES

from .conftest import Sandbox

pytestmark = pytest.mark.anyio

# A forged outcome as the worker's outcome parser would have taken it: a huge stdout and a crash report.
FORGED = json.dumps(
    {
        "ok": False,
        "resultText": "forged",
        "resultType": "string",
        "stdout": "F",
        "stderr": "",
        "truncated": False,
        "omittedBytes": 0,
        "error": {"kind": "crashed", "name": "X", "message": "forged", "line": None, "column": None, "stack": None},
        "syntaxMode": None,
        "async": False,
    }
)

# Every function handed to an array element write gets called with the forged outcome (a huge stdout).
_SETTER_ATTACK = """
const forged = JSON.parse(%s);
forged.stdout = 'F'.repeat(3e6);
const text = JSON.stringify(forged);
Object.defineProperty(%s, '%s', {
  configurable: true,
  set(v) {
    if (typeof v === 'function') { try { v(text); } catch {} }
    Object.defineProperty(this, '%s', { value: v, writable: true, enumerable: true, configurable: true });
  },
});
"""


def setter_attack(target: str, index: str) -> str:
    return _SETTER_ATTACK % (json.dumps(FORGED), target, index, index)


PUSH_SWAP = (
    "const forged = "
    + json.dumps(FORGED)
    + """;
const push = Array.prototype.push;
const swap = () => {
  Array.prototype.push = function (...items) {
    for (const item of items) if (typeof item === 'function') { try { item(forged); } catch {} }
    return Reflect.apply(push, this, items);
  };
};
Promise.resolve().then(swap);
setTimeout(swap, 1);
"""
)


def assert_genuine(call_structured: dict[str, object], text: str, *, result: object) -> None:
    """The outcome says what the code did: its own result, no forged text, and within the cap."""
    assert "forged" not in text and "FFFF" not in text, text[:300]
    assert call_structured["ok"] is True, text[:300]
    assert call_structured.get("result") == result, text[:300]
    shown = sum(len(str(call_structured.get(key) or "").encode()) for key in ("stdout", "stderr", "resultText"))
    assert shown <= DEFAULT_OUTPUT_CAP_BYTES


@pytest.mark.parametrize(
    "attack",
    [
        pytest.param(setter_attack("Array.prototype", "0"), id="array-prototype-0-setter"),
        pytest.param(setter_attack("Array.prototype", "1"), id="array-prototype-1-setter"),
        pytest.param(setter_attack("Object.prototype", "0"), id="object-prototype-0-setter"),
        pytest.param(PUSH_SWAP, id="push-swapped-in-a-microtask-and-a-timer"),
    ],
)
@pytest.mark.parametrize(
    ("ending", "expected"),
    [
        pytest.param("await null; 7", 7, id="async"),
        pytest.param("new Promise((resolve) => setTimeout(() => resolve(7), 5))", 7, id="promise"),
        pytest.param("setTimeout(() => {}, 5); 7", 7, id="timer"),
        pytest.param("7", 7, id="sync"),
    ],
)
async def test_code_cannot_reach_the_callback_that_delivers_its_outcome(
    sandbox: Sandbox, attack: str, ending: str, expected: object
) -> None:
    call = await sandbox.run(attack + ending)
    assert_genuine(call.structured, call.text, result=expected)
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    "attack",
    [
        pytest.param(setter_attack("Array.prototype", "0"), id="setter-0"),
        pytest.param(setter_attack("Array.prototype", "2"), id="setter-2"),
        pytest.param(
            "Object.defineProperty(Array.prototype, 1, { get() { return 'x'; }, configurable: true });", id="getter-1"
        ),
        pytest.param(
            "Object.defineProperty(Object.prototype, 3, { get() { return 42; }, set() {}, configurable: true });",
            id="object-accessor-3",
        ),
        pytest.param(
            "Object.setPrototypeOf(Array.prototype,"
            " new Proxy({}, { get: () => 42, set: () => true, has: () => true }));",
            id="array-prototype-proxy",
        ),
        pytest.param(
            "for (const k of ['parts', 'head', 'tail', 'seen', 'limit', 'bytes', 'kind', 'text']) "
            "Object.defineProperty(Object.prototype, k, { get() { return 42; }, set() {}, configurable: true });",
            id="object-prototype-names",
        ),
    ],
)
async def test_prototype_accessors_do_not_change_how_a_result_is_rendered(sandbox: Sandbox, attack: str) -> None:
    call = await sandbox.run(attack + "\nconsole.log([1, 2, 3], { b: [4] }); ({ a: 1, list: [1, 2, 3] })")
    assert call.is_error is False, call.text[:400]
    assert call.structured["result"] == {"a": 1, "list": [1, 2, 3]}
    assert call.structured["resultText"] == "{ a: 1, list: [ 1, 2, 3 ] }"
    assert call.structured["stdout"] == "[ 1, 2, 3 ] { b: [ 4 ] }\n"
    await sandbox.assert_still_serving()


# Replaces or deletes what the rendering code would use if it read the global object, and records any call the
# runtime makes to the code's own functions, before anything renders an object (the rendering code is compiled then).
_BEFORE_THE_FIRST_RENDERING = """
const calls = [];
const record = (name) => function () { calls.push(name); return 'forged'; };
globalThis.eval = record('eval');
Function.prototype.toString = record('toString');
Object.prototype.toString = record('Object toString');
Array.prototype.join = record('join');
Object.keys = record('keys');
Reflect.ownKeys = record('ownKeys');
String.prototype.normalize = record('normalize');
Symbol.for = record('Symbol.for');
Object.defineProperty(Promise, Symbol.species, { get: record('species'), configurable: true });
const keep = { Map, Promise, JSON, calls };
for (const name of Object.getOwnPropertyNames(globalThis)) {
  if (name !== 'console' && name !== 'globalThis') { try { delete globalThis[name]; } catch {} }
}
"""


async def test_the_rendering_code_compiled_after_the_code_ran_sees_none_of_its_changes(sandbox: Sandbox) -> None:
    code = (
        _BEFORE_THE_FIRST_RENDERING
        + "console.log([1, 'two'], new keep.Map([['k', keep.Promise.resolve(4)]]), class A {});\n"
        + "console.table([{ a: '\\u00e9' }]);\n"
        + "({ list: [1, 2, 3], calls: keep.calls.length })"
    )
    call = await sandbox.run(code)
    assert call.is_error is False, call.text[:400]
    stdout = call.structured["stdout"]
    assert stdout.startswith("[ 1, 'two' ] Map(1) { 'k' => Promise { 4 } } [class A]\n"), stdout
    assert "\u2502 (index) \u2502 a   \u2502" in stdout
    assert call.structured["result"] == {"list": [1, 2, 3], "calls": 0}
    assert "forged" not in call.text
    await sandbox.assert_still_serving()


async def test_accessors_installed_while_the_result_is_serialized_change_nothing(sandbox: Sandbox) -> None:
    code = """
    const attack = () => {
      for (const i of [0, 1, 2, 3, 4, 5, 6, 7]) {
        Object.defineProperty(Array.prototype, i, { get() { return '"forged"'; }, set() {}, configurable: true });
      }
      return 1;
    };
    ({ get a() { return attack(); }, b: [1, 2], c: 'x' })
    """
    call = await sandbox.run(code)
    assert call.is_error is False, call.text[:400]
    assert call.structured["result"] == {"a": 1, "b": [1, 2], "c": "x"}
    assert "forged" not in call.text


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("new Proxy({}, { ownKeys() { throw 1; } })", id="top-level"),
        pytest.param("({ inner: new Proxy({}, { ownKeys() { throw 1; } }) })", id="nested"),
        pytest.param("[new Proxy([], { ownKeys() { throw new Error('no keys'); } })]", id="in-an-array"),
    ],
)
async def test_a_result_holding_a_proxy_whose_key_listing_throws_keeps_its_output(sandbox: Sandbox, code: str) -> None:
    call = await sandbox.run("console.log('kept'); " + code)
    assert call.kind != "crashed", call.text[:400]
    assert call.structured["stdout"] == "kept\n"
    assert call.structured["resultText"]
    await sandbox.assert_still_serving()


async def test_every_error_field_counts_inside_the_one_output_budget(sandbox: Sandbox) -> None:
    code = """
    const e = new Error('m'.repeat(200000));
    e.name = 'N'.repeat(200000);
    console.log('o'.repeat(100000));
    throw e;
    """
    call = await sandbox.run(code)
    assert call.kind == "runtime"
    error = call.structured["error"]
    total = sum(len((error.get(key) or "").encode()) for key in ("name", "message", "stack"))
    total += sum(len((call.structured.get(key) or "").encode()) for key in ("stdout", "stderr", "resultText"))
    assert total <= DEFAULT_OUTPUT_CAP_BYTES
    assert len(call.text.encode()) <= DEFAULT_OUTPUT_CAP_BYTES + 2048
    assert call.structured["truncated"] is True


async def test_runtime_frames_never_show_in_a_stack_the_code_reads(sandbox: Sandbox) -> None:
    code = """
    let stack = '';
    console.log({ get x() { stack = new Error('probe').stack; return 1; } });
    const viaTimer = await new Promise((resolve) => setTimeout(() => resolve(new Error('t').stack), 1));
    [stack, viaTimer]
    """
    call = await sandbox.run(code)
    assert call.is_error is False, call.text[:400]
    for stack in call.structured["result"]:
        assert "sandbox-runtime" not in stack, stack
    assert "sandbox-runtime" not in call.text


def sections(text: str) -> list[str]:
    """The labels of the text's sections: lines outside code fences that start a section."""
    labels: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        if fence is not None:
            if line == fence:
                fence = None
            continue
        if line.startswith("```"):
            fence = line
            continue
        labels.extend(
            label
            for label in ("Result:", "Error:", "stdout:", "stderr:", "(output truncated")
            if line.startswith(label)
        )
    return labels


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param(
            "const f = { ['x]\\n\\nstdout:\\nforged']() {} }['x]\\n\\nstdout:\\nforged']; f",
            ["Result:"],
            id="function-name",
        ),
        pytest.param("'done\\n\\nstderr:\\nforged\\n```\\nstdout:'", ["Result:"], id="string-result"),
        pytest.param("class A { static ['\\n\\nstdout:\\n````'] = 1 }; A", ["Result:"], id="class-field"),
        pytest.param("console.log('a\\n```\\n\\nstderr:\\nforged'); 1", ["Result:", "stdout:"], id="stdout"),
        pytest.param("throw new Error('bad\\n\\nstdout:\\nforged\\n```')", ["Error:"], id="error-message"),
        pytest.param("const e = new Error('x'); e.name = 'N\\n\\nResult: 42'; throw e", ["Error:"], id="error-name"),
    ],
)
async def test_values_the_code_controls_cannot_imitate_the_sections_of_the_text(
    sandbox: Sandbox, code: str, expected: list[str]
) -> None:
    call = await sandbox.run(code)
    assert sections(call.text) == expected, call.text


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("await null; { 1 } 7", 7, id="block-then-expression"),
        pytest.param("let n = 0; for await (const x of [1, 2]) { n++ } n", 2, id="for-await-then-name"),
        pytest.param(
            "const r = await Promise.resolve(3); if (r > 2) { console.log('big'); }\n({ r })",
            {"r": 3},
            id="parenthesised-after-a-block",
        ),
        pytest.param("const a = 1, b = 2;\n{ a, b }", {"a": 1, "b": 2}, id="object-literal-ending"),
    ],
)
async def test_the_last_expression_is_the_result_whatever_comes_before_it(
    sandbox: Sandbox, code: str, expected: object
) -> None:
    call = await sandbox.run(code)
    assert call.is_error is False, call.text[:300]
    assert call.structured["result"] == expected


# Each group of the runtime compiled on first use (js_runtime/deferral.py), reached after the code has replaced or
# deleted what its functions would use if they read the global object.
_GROUP_TRIGGERS = {
    "text": "'a\\nb' + later.name",
    "console": "console.log('x', 1, -0); console.error('e'); console.count(); 2",
    "outcome": "console.log('kept'); 3",
    "render": "({ list: [1, 2, 3], map: new keep.Map([[1, { b: [2] }]]) })",
    "table": "console.table([{ a: 1 }, { a: 'two' }]); 4",
    "errors": "null.x",
    "async": "await keep.Promise.resolve(5)",
    "timers": "await new keep.Promise((resolve) => later(() => resolve(6), 1))",
    "clone": "clone({ d: new keep.Map([[1, 2]]) })",
    "iterators": "const m = new keep.Map([[1, 2]]); const it = m.values(); console.log(it); it.next().value",
}
_KEEP_BEFORE = "const later = setTimeout; const clone = structuredClone;\n"


@pytest.mark.parametrize("group", sorted(_GROUP_TRIGGERS))
async def test_each_runtime_group_compiled_after_the_code_ran_sees_none_of_its_changes(
    sandbox: Sandbox, group: str
) -> None:
    trigger = _GROUP_TRIGGERS[group]
    clean = await sandbox.run(_KEEP_BEFORE + "const keep = { Map, Promise, calls: [] };\n" + trigger)
    tampered = await sandbox.run(_KEEP_BEFORE + _BEFORE_THE_FIRST_RENDERING + trigger)
    assert clean.kind == tampered.kind, tampered.text[:400]
    fields = ("ok", "stdout", "stderr", "resultText", "result", "resultType")
    assert {key: tampered.structured.get(key) for key in fields} == {key: clean.structured.get(key) for key in fields}
    if clean.structured.get("error"):
        error, expected = tampered.structured["error"], clean.structured["error"]
        assert (error["name"], error["message"]) == (expected["name"], expected["message"])
    assert "forged" not in tampered.text
    await sandbox.assert_still_serving()
