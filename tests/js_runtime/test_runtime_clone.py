"""structuredClone, which V8 alone does not provide."""

from __future__ import annotations

from isolate_harness import RunJs


def test_structured_clone_copies_deeply_and_keeps_types_and_cycles(run_js: RunJs) -> None:
    code = """
const original = { when: new Date(0), map: new Map([['k', [1, 2]]]), set: new Set([1]), bytes: new Uint8Array([7]),
  re: /a/g, nested: { list: [1, { deep: true }] } };
original.self = original;
const copy = structuredClone(original);
copy.nested.list[1].deep = false;
[copy !== original, copy.self === copy, copy.when instanceof Date, copy.map.get('k')[1], copy.set.has(1),
 copy.bytes[0], copy.re.flags, original.nested.list[1].deep]
"""
    assert run_js(code)["result"] == [True, True, True, 2, True, 7, "g", True]


def test_structured_clone_rejects_functions_with_a_data_clone_error(run_js: RunJs) -> None:
    error = run_js("structuredClone({ f() {} })")["error"]
    assert error["name"] == "DataCloneError"
    assert error["message"] == "[Function: f] could not be cloned."


def test_structured_clone_copies_errors(run_js: RunJs) -> None:
    outcome = run_js("const e = structuredClone(new RangeError('r')); [e instanceof Error, e.name, e.message]")
    assert outcome["result"] == [True, "RangeError", "r"]
