"""The structured result: a JSON form of the value for programs, next to its rendering."""

from __future__ import annotations

import json
from typing import Any

import pytest
from isolate_harness import RunJs


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("[NaN, Infinity, -Infinity, -0, 1.5]", ["NaN", "Infinity", "-Infinity", 0, 1.5], id="numbers"),
        pytest.param("12345678901234567890n", "12345678901234567890", id="bigint"),
        pytest.param("[1, , undefined, null]", [1, None, None, None], id="holes-and-undefined"),
        pytest.param("({ a: undefined, b: 1 })", {"b": 1}, id="undefined-property-omitted"),
        pytest.param(
            "({ f: function named() {}, g: () => 1, c: class K {} })",
            {"f": "[Function: named]", "g": "[Function: g]", "c": "[class K]"},
            id="functions",
        ),
        pytest.param("({ s: Symbol('desc') })", {"s": "Symbol(desc)"}, id="symbol"),
        pytest.param("new Map([['a', 1], ['b', { c: 2 }]])", {"a": 1, "b": {"c": 2}}, id="map-string-keys"),
        pytest.param("new Map([[1, 'one'], [{ k: 1 }, 'obj']])", [[1, "one"], [{"k": 1}, "obj"]], id="map-other-keys"),
        pytest.param("new Set([1, 'a', [2]])", [1, "a", [2]], id="set"),
        pytest.param("[new Date(0), new Date(NaN)]", ["1970-01-01T00:00:00.000Z", None], id="dates"),
        pytest.param("new Float32Array([0.5, 2])", [0.5, 2], id="typed-array"),
        pytest.param("new BigInt64Array([1n, -2n])", ["1", "-2"], id="bigint-typed-array"),
        pytest.param(
            "class Point { constructor() { this.x = 1; this.y = 2 } }; new Point()",
            {"x": 1, "y": 2},
            id="class-instance",
        ),
        pytest.param(
            "const o = { name: 'o' }; o.self = o; o.list = [o]; o",
            {"name": "o", "self": "[Circular]", "list": ["[Circular]"]},
            id="cycles",
        ),
        pytest.param("const shared = { v: 1 }; [shared, shared]", [{"v": 1}, {"v": 1}], id="shared-is-not-a-cycle"),
        pytest.param("({ toJSON() { return { replaced: true } } })", {"replaced": True}, id="to-json"),
        pytest.param("({ toJSON() { throw new Error('nope') } })", "[toJSON threw: nope]", id="to-json-throws"),
        pytest.param("({ get g() { return 'read' } })", {"g": "read"}, id="getter-read"),
        pytest.param(
            "({ get g() { throw new TypeError('bad getter') }, ok: 1 })",
            {"g": "[Getter threw: bad getter]", "ok": 1},
            id="getter-throws",
        ),
        pytest.param("Object(5)", 5, id="boxed-number"),
        pytest.param("/x+/gi", "/x+/gi", id="regexp"),
        pytest.param("({ [Symbol('hidden')]: 1, shown: 2 })", {"shown": 2}, id="symbol-keys-skipped"),
        pytest.param("new Map([['__proto__', 1]])", {"__proto__": 1}, id="proto-key"),
        pytest.param("'é\\u{1F600}'", "é😀", id="unicode-string"),
    ],
)
def test_the_structured_result_maps_values_to_json(run_js: RunJs, code: str, expected: Any) -> None:
    outcome = run_js(code)
    assert outcome["ok"] is True
    assert outcome["result"] == expected


def test_an_error_result_becomes_name_message_and_stack(run_js: RunJs) -> None:
    outcome = run_js("const e = new RangeError('out');\ne.code = 3;\ne")
    assert outcome["resultType"] == "error"
    assert outcome["result"] == {
        "name": "RangeError",
        "message": "out",
        "stack": "RangeError: out\n    at main.js:1:11",
        "code": 3,
    }


def test_nesting_deeper_than_64_levels_is_cut(run_js: RunJs) -> None:
    result = run_js("let v = 'bottom'; for (let i = 0; i < 80; i++) v = [v]; v")["result"]
    depth = 0
    while isinstance(result, list):
        result = result[0]
        depth += 1
    assert (depth, result) == (64, "[Object]")


def test_a_to_json_on_object_prototype_is_ignored(run_js: RunJs) -> None:
    outcome = run_js("Object.prototype.toJSON = () => 'hijacked'; ({ a: [1] })")
    assert outcome["result"] == {"a": [1]}


def test_a_structured_result_over_the_cap_is_left_out_and_counted(run_js: RunJs) -> None:
    code = "Array.from({ length: 3000 }, (_, i) => ({ index: i, label: 'é' + i }))"
    outcome = run_js(code, output_cap=4096)
    assert "result" not in outcome
    assert outcome["truncated"] is True
    full = run_js(code, output_cap=10_000_000)
    result_bytes = len(json.dumps(full["result"], ensure_ascii=False, separators=(",", ":")).encode())
    # The rendering (100 items shown) fits; only the structured form was left out.
    assert outcome["resultText"] == full["resultText"]
    assert outcome["omittedBytes"] == result_bytes


def test_a_structured_result_just_under_the_cap_is_kept(run_js: RunJs) -> None:
    outcome = run_js("'x'.repeat(98)", output_cap=100)
    assert outcome["result"] == "x" * 98
