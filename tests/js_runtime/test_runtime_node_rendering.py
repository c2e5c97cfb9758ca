"""Renderings where Node shows more than a plain object walk can: what Map and Set iterators have left,
the state of promises, console.table with wide and combining characters, strings cut after 10,000
characters, and custom inspect methods. Every expectation was recorded from Node 20 (`node -e` with
util.inspect.defaultOptions.depth = 6, the runtime's depth)."""

from __future__ import annotations

import pytest
from isolate_harness import RunJs

NODE_RENDERINGS = [
    pytest.param(
        (
            "const m = new Map([['a', 1], ['b', 2]]); console.log(m.keys(), m.values()); cons"
            "ole.log(m.entries(), m[Symbol.iterator]())"
        ),
        (
            "[Map Iterator] { 'a', 'b' } [Map Iterator] { 1, 2 }\n"
            "[Map Entries] { [ 'a', 1 ], [ 'b', 2 ] } [Map Entries] { [ 'a', 1 ], [ 'b', 2 ] }\n"
        ),
        id="map-iterators",
    ),
    pytest.param(
        "const s = new Set([1, 'x']); console.log(s.values(), s.keys()); console.log(s.entries())",
        ("[Set Iterator] { 1, 'x' } [Set Iterator] { 1, 'x' }\n[Set Entries] { [ 1, 1 ], [ 'x', 'x' ] }\n"),
        id="set-iterators",
    ),
    pytest.param(
        (
            "const m = new Map([['a', 1], ['b', 2], ['c', 3]]); const it = m.keys(); it.next("
            "); console.log(it); console.log(it.next(), [...it], it.next()); console.log(it)"
        ),
        (
            "[Map Iterator] { 'b', 'c' }\n"
            "{ value: 'b', done: false } [ 'c' ] { value: undefined, done: true }\n"
            "[Map Iterator] {  }\n"
        ),
        id="iterator-not-used-up",
    ),
    pytest.param(
        (
            "const m = new Map([['a', 1], ['b', 2]]); const it = m.entries(); m.delete('a'); "
            "console.log(it); m.set('c', 3); console.log(it); console.log(Array.from(it))"
        ),
        ("[Map Entries] { [ 'b', 2 ] }\n[Map Entries] { [ 'b', 2 ], [ 'c', 3 ] }\n[ [ 'b', 2 ], [ 'c', 3 ] ]\n"),
        id="iterator-after-changes",
    ),
    pytest.param(
        (
            "const s = new Set([1]); const done = s.values(); done.next(); done.next(); s.add"
            "(2); console.log(done, done.next()); const open = s.values(); open.next(); open."
            "next(); s.add(3); console.log(open)"
        ),
        ("[Set Iterator] {  } { value: undefined, done: true }\n[Set Iterator] { 3 }\n"),
        id="iterator-finished-stays-finished",
    ),
    pytest.param(
        (
            "const s = new Set([1, 2, 3]); const it = s.values(); for (const v of it) { conso"
            "le.log(v, it); if (v === 2) s.add(9) }"
        ),
        ("1 [Set Iterator] { 2, 3 }\n2 [Set Iterator] { 3 }\n3 [Set Iterator] { 9 }\n9 [Set Iterator] {  }\n"),
        id="iterator-in-loop",
    ),
    pytest.param(
        (
            "const m = new Map([[{ a: 1 }, [1, 2]]]); const it = m.entries(); it.x = 1; conso"
            "le.log({ k: it }, [new Map().keys()])"
        ),
        "{ k: [Map Entries] { [ { a: 1 }, [ 1, 2 ] ], x: 1 } } [ [Map Iterator] {  } ]\n",
        id="iterator-nested-and-extra-keys",
    ),
    pytest.param(
        "console.log(new Set(Array.from({ length: 103 }, (_, i) => i)).values())",
        (
            "[Set Iterator] {\n"
            "  0,\n"
            "  1,\n"
            "  2,\n"
            "  3,\n"
            "  4,\n"
            "  5,\n"
            "  6,\n"
            "  7,\n"
            "  8,\n"
            "  9,\n"
            "  10,\n"
            "  11,\n"
            "  12,\n"
            "  13,\n"
            "  14,\n"
            "  15,\n"
            "  16,\n"
            "  17,\n"
            "  18,\n"
            "  19,\n"
            "  20,\n"
            "  21,\n"
            "  22,\n"
            "  23,\n"
            "  24,\n"
            "  25,\n"
            "  26,\n"
            "  27,\n"
            "  28,\n"
            "  29,\n"
            "  30,\n"
            "  31,\n"
            "  32,\n"
            "  33,\n"
            "  34,\n"
            "  35,\n"
            "  36,\n"
            "  37,\n"
            "  38,\n"
            "  39,\n"
            "  40,\n"
            "  41,\n"
            "  42,\n"
            "  43,\n"
            "  44,\n"
            "  45,\n"
            "  46,\n"
            "  47,\n"
            "  48,\n"
            "  49,\n"
            "  50,\n"
            "  51,\n"
            "  52,\n"
            "  53,\n"
            "  54,\n"
            "  55,\n"
            "  56,\n"
            "  57,\n"
            "  58,\n"
            "  59,\n"
            "  60,\n"
            "  61,\n"
            "  62,\n"
            "  63,\n"
            "  64,\n"
            "  65,\n"
            "  66,\n"
            "  67,\n"
            "  68,\n"
            "  69,\n"
            "  70,\n"
            "  71,\n"
            "  72,\n"
            "  73,\n"
            "  74,\n"
            "  75,\n"
            "  76,\n"
            "  77,\n"
            "  78,\n"
            "  79,\n"
            "  80,\n"
            "  81,\n"
            "  82,\n"
            "  83,\n"
            "  84,\n"
            "  85,\n"
            "  86,\n"
            "  87,\n"
            "  88,\n"
            "  89,\n"
            "  90,\n"
            "  91,\n"
            "  92,\n"
            "  93,\n"
            "  94,\n"
            "  95,\n"
            "  96,\n"
            "  97,\n"
            "  98,\n"
            "  99,\n"
            "  ... 3 more items\n"
            "}\n"
        ),
        id="iterator-many-items",
    ),
    pytest.param(
        "console.log(Object.create(Object.getPrototypeOf(new Map().keys())))",
        "Object [Map Iterator] {}\n",
        id="iterator-lookalike",
    ),
    pytest.param(
        (
            "const r = Promise.reject(42); r.catch(() => {}); console.log(Promise.resolve(1),"
            " new Promise(() => {}), r); console.log({ p: Promise.resolve('s') }, [Promise.re"
            "solve({ a: [1, 2] })])"
        ),
        (
            "Promise { 1 } Promise { <pending> } Promise { <rejected> 42 }\n"
            "{ p: Promise { 's' } } [\n"
            "  Promise { { a: [ 1, 2 ] } }\n"
            "]\n"
        ),
        id="promise-states",
    ),
    pytest.param(
        (
            "const e = new Error('x'); e.stack = 'Error: x'; const r = Promise.reject(e); r.c"
            "atch(() => {}); console.log(r)"
        ),
        "Promise { <rejected> [Error: x] }\n",
        id="promise-rejected-error",
    ),
    pytest.param(
        (
            "async function f() { return 5 } async function g() { await null; return 5 } cons"
            "ole.log(f(), g()); class MyP extends Promise {} console.log(MyP.resolve(2)); con"
            "st p = Promise.resolve(3); p.tag = 1; console.log(p)"
        ),
        ("Promise { 5 } Promise { <pending> }\nMyP [Promise] { 2 }\nPromise { 3, tag: 1 }\n"),
        id="promise-kinds",
    ),
    pytest.param(
        ("console.log(Promise.resolve(Promise.resolve(1)), new Promise((r) => r(Promise.resolve(1))))"),
        "Promise { 1 } Promise { <pending> }\n",
        id="promise-adopting",
    ),
    pytest.param(
        ("let res; const p = new Promise((r) => { res = r }); console.log(p); res(7); console.log(p)"),
        ("Promise { <pending> }\nPromise { 7 }\n"),
        id="promise-settled-later",
    ),
    pytest.param(
        "console.log(Promise.resolve([Promise.resolve('inner'), new Promise(() => {})]))",
        "Promise { [ Promise { 'inner' }, Promise { <pending> } ] }\n",
        id="promise-nested",
    ),
    pytest.param(
        (
            "Promise.resolve().then(() => console.log('micro')); console.log('a'); console.lo"
            "g(Promise.resolve(1)); console.log('b'); const o = { n: 1, p: new Promise(() => "
            "{}) }; console.log(o); o.n = 2; setTimeout(() => console.log('timer', Promise.re"
            "solve('t')), 5)"
        ),
        ("a\nPromise { 1 }\nb\n{ n: 1, p: Promise { <pending> } }\nmicro\ntimer Promise { 't' }\n"),
        id="promise-output-order",
    ),
    pytest.param(
        (
            "console.group('G'); console.log(Promise.resolve({ deep: 1 })); console.groupEnd("
            "); console.log('out'); console.table([{ p: Promise.resolve(1) }])"
        ),
        (
            "G\n"
            "  Promise { { deep: 1 } }\n"
            "out\n"
            "┌─────────┬───────────────┐\n"
            "│ (index) │ p             │\n"
            "├─────────┼───────────────┤\n"
            "│ 0       │ Promise { 1 } │\n"
            "└─────────┴───────────────┘\n"
        ),
        id="promise-group-and-table",
    ),
    pytest.param(
        (
            "console.table([{ name: '東京', v: 1 }, { name: 'e\\u0301te\\u0301', v: 22 }, { name:"
            " '😀x', v: 3 }, { name: 'ﾊﾝｶｸ', v: 4 }])"
        ),
        (
            "┌─────────┬────────┬────┐\n"
            "│ (index) │ name   │ v  │\n"
            "├─────────┼────────┼────┤\n"
            "│ 0       │ '東京' │ 1  │\n"
            "│ 1       │ 'été'  │ 22 │\n"
            "│ 2       │ '😀x'  │ 3  │\n"
            "│ 3       │ 'ﾊﾝｶｸ' │ 4  │\n"
            "└─────────┴────────┴────┘\n"
        ),
        id="table-wide-characters",
    ),
    pytest.param(
        (
            "console.table({ '漢字': { x: '한국어' }, ab: { x: 'z' } }); console.table(['\\u1100\\u1"
            "161', 'a\\u200bb', '👍🏽', '👨\u200d👩\u200d👧'])"
        ),
        (
            "┌─────────┬──────────┐\n"
            "│ (index) │ x        │\n"
            "├─────────┼──────────┤\n"
            "│ 漢字    │ '한국어' │\n"
            "│ ab      │ 'z'      │\n"
            "└─────────┴──────────┘\n"
            "┌─────────┬──────────┐\n"
            "│ (index) │ Values   │\n"
            "├─────────┼──────────┤\n"
            "│ 0       │ '가'     │\n"
            "│ 1       │ 'a\u200bb'     │\n"
            "│ 2       │ '👍🏽'   │\n"
            "│ 3       │ '👨\u200d👩\u200d👧' │\n"
            "└─────────┴──────────┘\n"
        ),
        id="table-wide-keys-and-values",
    ),
    pytest.param(
        ("console.log(['ab'.repeat(5001)]); console.log({ k: 'x'.repeat(10001), j: 'y'.repeat(10000) })"),
        (
            "[\n  '"
            + "ab" * 5000
            + "'... 2 more characters\n]\n{\n  k: '"
            + "x" * 10000
            + "'... 1 more character,\n  j: '"
            + "y" * 10000
            + "'\n}\n"
        ),
        id="long-strings",
    ),
    pytest.param(
        (
            "console.log(new Map([['y'.repeat(10005), 1]]), [new String('z'.repeat(10003))], "
            "[[['\\u{1F600}'.repeat(5001)]]])"
        ),
        (
            "Map(1) {\n  '"
            + "y" * 10000
            + "'... 5 more characters => 1\n} [\n  [String: '"
            + "z" * 10000
            + "'... 3 more characters]\n] [\n  [\n    [\n      '"
            + "\U0001f600" * 5000
            + "'... 2 more characters\n    ]\n  ]\n]\n"
        ),
        id="long-strings-everywhere",
    ),
    pytest.param(
        "console.log(['a\\n'.repeat(6000)])",
        ("[\n  " + " +\n    ".join(["'a\\n'"] * 5000) + "... 2000 more characters\n]\n"),
        id="long-multiline-string",
    ),
    pytest.param(
        ("console.log('q'.repeat(10500)); console.dir('r'.repeat(10002)); console.log('%o', 's'.repeat(10001))"),
        ("q" * 10500 + "\n'" + "r" * 10000 + "'... 2 more characters\n'" + "s" * 10000 + "'... 1 more character\n"),
        id="long-string-top-level",
    ),
    pytest.param(
        (
            "const c = Symbol.for('nodejs.util.inspect.custom'); const o = { [c](depth, optio"
            "ns, inspect) { const { stylize, ...rest } = options; console.log(depth, JSON.str"
            "ingify(rest), stylize('x'), inspect.name, inspect.custom === c, this === o); ret"
            "urn 'CUSTOM' } }; console.log(o); console.log({ a: { b: o } })"
        ),
        (
            '6 {"showHidden":false,"depth":6,"colors":false,"customInspect":true,"showProxy":'
            'false,"maxArrayLength":100,"maxStringLength":10000,"breakLength":80,"compact":3,'
            '"sorted":false,"getters":false,"numericSeparator":false} x inspect true true\n'
            "CUSTOM\n"
            '4 {"showHidden":false,"depth":6,"colors":false,"customInspect":true,"showProxy":'
            'false,"maxArrayLength":100,"maxStringLength":10000,"breakLength":80,"compact":3,'
            '"sorted":false,"getters":false,"numericSeparator":false} x inspect true true\n'
            "{ a: { b: CUSTOM } }\n"
        ),
        id="custom-inspect-arguments",
    ),
    pytest.param(
        (
            "const c = Symbol.for('nodejs.util.inspect.custom'); const r = { [c]() { return {"
            " x: 1, nested: [1, 2] } } }; const m = { [c]() { return 'line1\\nline2' } }; cons"
            "t self = { a: 1, [c]() { return this } }; console.log(r, [r]); console.log({ k: "
            "m }); console.log(self); console.log({ [c]() { return 42 } }, { [c]() { return n"
            "ull } }, { [c]: 5 })"
        ),
        (
            "{ x: 1, nested: [ 1, 2 ] } [ { x: 1, nested: [ 1, 2 ] } ]\n"
            "{\n"
            "  k: line1\n"
            "  line2\n"
            "}\n"
            "{\n"
            "  a: 1,\n"
            "  [Symbol(nodejs.util.inspect.custom)]: [Function: [nodejs.util.inspect.custom]]\n"
            "}\n"
            "42 null { [Symbol(nodejs.util.inspect.custom)]: 5 }\n"
        ),
        id="custom-inspect-results",
    ),
    pytest.param(
        (
            "const c = Symbol.for('nodejs.util.inspect.custom'); class K { constructor() { th"
            "is.v = 1 } [c](d, opts, insp) { return 'K<' + insp(this.v, opts) + '>' } } conso"
            "le.log(new K(), K.prototype); class Money { constructor(a) { this.amount = a } ["
            "c](depth, options, inspect) { if (depth < 0) return options.stylize('[Money]', '"
            "special'); return 'Money(' + inspect(this.amount, options) + ')' } } console.log"
            "([new Money(5)], { m: { n: { o: { p: { q: { r: new Money(1) } } } } } })"
        ),
        ("K<1> {}\n[ Money(5) ] {\n  m: {\n    n: {\n      o: { p: { q: { r: Money(1) } } }\n    }\n  }\n}\n"),
        id="custom-inspect-classes",
    ),
    pytest.param(
        (
            "const c = Symbol.for('nodejs.util.inspect.custom'); const n = { [c](depth, opts,"
            " insp) { return insp({ deep: { deeper: { deepest: 1 } } }, { ...opts, depth: 0 }"
            ") } }; console.log([n]); const d = { [c](depth) { return depth } }; console.log("
            "{ a: { b: d } }, d); const cyc = { [c]() { return cyc2 } }; const cyc2 = { back:"
            " cyc }; console.log(cyc)"
        ),
        ("[ { deep: [Object] } ]\n{ a: { b: 4 } } 6\n<ref *1> { back: [Circular *1] }\n"),
        id="custom-inspect-inspect-with-options",
    ),
    pytest.param(
        (
            "const c = Symbol.for('nodejs.util.inspect.custom'); try { console.log({ [c]() { "
            "throw new Error('boom') } }) } catch (e) { console.log('caught', e.message) } tr"
            "y { console.log('%s', { [c]() { throw new TypeError('nope') } }) } catch (e) { c"
            "onsole.log('caught', e.name) }"
        ),
        ("caught boom\ncaught TypeError\n"),
        id="custom-inspect-throws",
    ),
    pytest.param(
        (
            "const c = Symbol.for('nodejs.util.inspect.custom'); const g = { get [c]() { cons"
            "ole.log('getter'); return () => 'G' } }; console.log(g); const o = { [c]() { ret"
            "urn 'C' } }; console.dir(o); console.dir(o, { customInspect: true }); console.ta"
            "ble([{ a: o }])"
        ),
        (
            "getter\n"
            "G\n"
            "{\n"
            "  [Symbol(nodejs.util.inspect.custom)]: [Function: [nodejs.util.inspect.custom]]\n"
            "}\n"
            "C\n"
            "┌─────────┬───┐\n"
            "│ (index) │ a │\n"
            "├─────────┼───┤\n"
            "│ 0       │ C │\n"
            "└─────────┴───┘\n"
        ),
        id="custom-inspect-getter-and-dir",
    ),
]


@pytest.mark.parametrize(("code", "expected"), NODE_RENDERINGS)
def test_rendering_matches_node(run_js: RunJs, code: str, expected: str) -> None:
    outcome = run_js(code, output_cap=200_000)
    assert outcome["error"] is None
    assert outcome["stdout"] == expected


def test_a_result_shows_the_promises_and_iterators_in_it_as_node_does(run_js: RunJs) -> None:
    # Node 20: console.log([Promise.resolve(1), new Promise(() => {}), new Map([[1, 2]]).keys(), (async () => 2)()])
    outcome = run_js("[Promise.resolve(1), new Promise(() => {}), new Map([[1, 2]]).keys(), (async () => 2)()]")
    assert outcome["error"] is None
    assert outcome["resultText"] == (
        "[\n  Promise { 1 },\n  Promise { <pending> },\n  [Map Iterator] { 1 },\n  Promise { 2 }\n]"
    )


def test_the_wrapped_iterator_methods_look_and_behave_like_the_built_ins(run_js: RunJs) -> None:
    code = """
    const native = (f) => /\\{\\s*\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(f));
    const mapNext = Object.getPrototypeOf(new Map().keys()).next;
    const setNext = Object.getPrototypeOf(new Set().keys()).next;
    const methods = [Map.prototype.keys, Map.prototype.values, Map.prototype.entries, Set.prototype.values,
      Set.prototype.entries, mapNext, setNext];
    let constructible = 0;
    for (const f of methods) { try { new f(); constructible++ } catch {} }
    const d = Object.getOwnPropertyDescriptor(Map.prototype, 'keys');
    [
      methods.every(native), methods.map((f) => f.name + '/' + f.length).join(), constructible,
      Map.prototype[Symbol.iterator] === Map.prototype.entries, Set.prototype.keys === Set.prototype.values,
      Set.prototype[Symbol.iterator] === Set.prototype.values, d.writable && d.configurable && !d.enumerable,
      Object.getPrototypeOf(new Map().keys()) === Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    ]
    """
    outcome = run_js(code)
    assert outcome["error"] is None
    assert outcome["result"] == [
        True,
        "keys/0,values/0,entries/0,values/0,entries/0,next/0,next/0",
        0,
        True,
        True,
        True,
        True,
        True,
    ]
