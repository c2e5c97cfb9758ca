"""Console output matches what Node 20 prints (expectations recorded from `node` with
util.inspect.defaultOptions.depth = 6, the runtime's depth)."""

from __future__ import annotations

import pytest
from isolate_harness import RunJs

NODE_CONSOLE_OUTPUT = [
    pytest.param(
        "console.log('str', 5, -0, 12n, null, undefined, true, Symbol('s'), Symbol())",
        "str 5 -0 12n null undefined true Symbol(s) Symbol()\n",
        id="primitives",
    ),
    pytest.param(
        "console.log({ a: 1, b: 'x' }, [1, 2, 3])",
        "{ a: 1, b: 'x' } [ 1, 2, 3 ]\n",
        id="object-and-array",
    ),
    pytest.param(
        (
            "console.log({ aaaaaaaaaa: 1111111111, bbbbbbbbbbbbb: '2222222222222222', cccccccccccc: [1, "
            "2, 3], dddddddddd: { x: 1 } })"
        ),
        (
            "{\n"
            "  aaaaaaaaaa: 1111111111,\n"
            "  bbbbbbbbbbbbb: '2222222222222222',\n"
            "  cccccccccccc: [ 1, 2, 3 ],\n"
            "  dddddddddd: { x: 1 }\n"
            "}\n"
        ),
        id="long-object-breaks",
    ),
    pytest.param(
        "console.log(Array.from({ length: 30 }, (_, i) => i * 7))",
        (
            "[\n"
            "    0,   7,  14,  21,  28,  35,  42,  49,\n"
            "   56,  63,  70,  77,  84,  91,  98, 105,\n"
            "  112, 119, 126, 133, 140, 147, 154, 161,\n"
            "  168, 175, 182, 189, 196, 203\n"
            "]\n"
        ),
        id="number-grid",
    ),
    pytest.param(
        "console.log(Array.from({ length: 130 }, (_, i) => 's' + i))",
        (
            "[\n"
            "  's0',  's1',  's2',  's3',  's4',  's5',  's6',  's7',\n"
            "  's8',  's9',  's10', 's11', 's12', 's13', 's14', 's15',\n"
            "  's16', 's17', 's18', 's19', 's20', 's21', 's22', 's23',\n"
            "  's24', 's25', 's26', 's27', 's28', 's29', 's30', 's31',\n"
            "  's32', 's33', 's34', 's35', 's36', 's37', 's38', 's39',\n"
            "  's40', 's41', 's42', 's43', 's44', 's45', 's46', 's47',\n"
            "  's48', 's49', 's50', 's51', 's52', 's53', 's54', 's55',\n"
            "  's56', 's57', 's58', 's59', 's60', 's61', 's62', 's63',\n"
            "  's64', 's65', 's66', 's67', 's68', 's69', 's70', 's71',\n"
            "  's72', 's73', 's74', 's75', 's76', 's77', 's78', 's79',\n"
            "  's80', 's81', 's82', 's83', 's84', 's85', 's86', 's87',\n"
            "  's88', 's89', 's90', 's91', 's92', 's93', 's94', 's95',\n"
            "  's96', 's97', 's98', 's99',\n"
            "  ... 30 more items\n"
            "]\n"
        ),
        id="more-items",
    ),
    pytest.param(
        "console.log({ a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } })",
        ("{\n  a: {\n    b: {\n      c: {\n        d: { e: { f: { g: [Object] } } }\n      }\n    }\n  }\n}\n"),
        id="depth-six",
    ),
    pytest.param(
        "console.log([[[[[[[[1]]]]]]]])",
        ("[\n  [\n    [\n      [\n        [ [ [ [Array] ] ] ]\n      ]\n    ]\n  ]\n]\n"),
        id="nested-arrays",
    ),
    pytest.param(
        (
            "console.log({ get a() { return 1 }, set b(v) {}, get c() { return 1 }, set c(v) {}, "
            "[Symbol('k')]: 2, 'a-b': 3, $x: 1, _y: 2, '1': 3 })"
        ),
        (
            "{\n"
            "  '1': 3,\n"
            "  a: [Getter],\n"
            "  b: [Setter],\n"
            "  c: [Getter/Setter],\n"
            "  'a-b': 3,\n"
            "  '$x': 1,\n"
            "  _y: 2,\n"
            "  [Symbol(k)]: 2\n"
            "}\n"
        ),
        id="getters-setters-keys",
    ),
    pytest.param(
        "const n = Object.create(null); n.a = 1; console.log(Object.create(null), n)",
        "[Object: null prototype] {} [Object: null prototype] { a: 1 }\n",
        id="null-prototype",
    ),
    pytest.param(
        "console.log([1, , 3, , , 6], new Array(5), new Array(1000))",
        "[ 1, <1 empty item>, 3, <2 empty items>, 6 ] [ <5 empty items> ] [ <1000 empty items> ]\n",
        id="sparse-arrays",
    ),
    pytest.param(
        "const arr = [1, 2]; arr.x = 1; console.log(arr)",
        "[ 1, 2, x: 1 ]\n",
        id="array-extra-key",
    ),
    pytest.param(
        "console.log(new Map([['a', 1], [{ b: 1 }, [2]]]), new Set([1, 'a']), new Map())",
        "Map(2) { 'a' => 1, { b: 1 } => [ 2 ] } Set(2) { 1, 'a' } Map(0) {}\n",
        id="map-set",
    ),
    pytest.param(
        ("console.log(new Uint8Array([1, 2, 3]), new Float64Array([1.5, -0, NaN]), new BigInt64Array([1n, -2n]))"),
        "Uint8Array(3) [ 1, 2, 3 ] Float64Array(3) [ 1.5, -0, NaN ] BigInt64Array(2) [ 1n, -2n ]\n",
        id="typed-arrays",
    ),
    pytest.param(
        "console.log(new ArrayBuffer(3)); console.log(new DataView(new ArrayBuffer(2)))",
        (
            "ArrayBuffer { [Uint8Contents]: <00 00 00>, byteLength: 3 }\n"
            "DataView {\n"
            "  byteLength: 2,\n"
            "  byteOffset: 0,\n"
            "  buffer: ArrayBuffer { [Uint8Contents]: <00 00>, byteLength: 2 }\n"
            "}\n"
        ),
        id="array-buffer-data-view",
    ),
    pytest.param(
        (
            "console.log(new Number(3), new String('ab'), new Boolean(false), Object(Symbol('s')), "
            "Object(5n), new Number(-0))"
        ),
        "[Number: 3] [String: 'ab'] [Boolean: false] [Symbol: Symbol(s)] [BigInt: 5n] [Number: -0]\n",
        id="boxed-primitives",
    ),
    pytest.param(
        "console.log(new WeakMap(), new WeakSet(), /a\\/b/gi, new Date(0), new Date(NaN))",
        ("WeakMap { <items unknown> } WeakSet { <items unknown> } /a\\/b/gi 1970-01-01T00:00:00.000Z Invalid Date\n"),
        id="weak-regexp-date",
    ),
    pytest.param(
        "const c = { name: 'c' }; c.self = c; c.arr = [c]; console.log(c)",
        "<ref *1> { name: 'c', self: [Circular *1], arr: [ [Circular *1] ] }\n",
        id="circular",
    ),
    pytest.param(
        "const m = new Map(); m.set('self', m); console.log(m)",
        "<ref *1> Map(1) { 'self' => [Circular *1] }\n",
        id="circular-map",
    ),
    pytest.param(
        "console.log([\"it's\"], ['a\\'\"b'], ['a\\nb'], { s: \"it's\" }, [undefined, null])",
        "[ \"it's\" ] [ `a'\"b` ] [ 'a\\nb' ] { s: \"it's\" } [ undefined, null ]\n",
        id="quotes",
    ),
    pytest.param(
        "console.log(['\\x00\\x01\\x0b\\x1f\\x7f\\x85\\ud800x\\udc00'])",
        "[ '\\x00\\x01\\x0B\\x1F\\x7F\\x85\\ud800x\\udc00' ]\n",
        id="escapes",
    ),
    pytest.param(
        "console.log({ a: 'x'.repeat(50) + '\\n' + 'y'.repeat(50) })",
        (
            "{\n"
            "  a: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\n' +\n"
            "    'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'\n"
            "}\n"
        ),
        id="long-multiline-string",
    ),
    pytest.param(
        (
            "function f() {}; f.a = 1; console.log([function () {}, class {}, () => {}], f); "
            "console.log(async () => {}, function* g() {}); console.log(async function* ag() {}, "
            "f.bind(null))"
        ),
        (
            "[ [Function (anonymous)], [class (anonymous)], [Function (anonymous)] ] [Function: f] { a: 1 }\n"
            "[AsyncFunction (anonymous)] [GeneratorFunction: g]\n"
            "[AsyncGeneratorFunction: ag] [Function: bound f]\n"
        ),
        id="functions",
    ),
    pytest.param(
        "class A {}; class B extends A {}; console.log(A, B, new B(), A.prototype)",
        "[class A] [class B extends A] B {} {}\n",
        id="classes",
    ),
    pytest.param(
        (
            "class P { constructor() { this.x = 1; this.y = 2 } }; console.log(new P(), [new P()], new "
            "(class MyMap extends Map {})([[1, 2]]), new (class MyArr extends Array {})(1, 2))"
        ),
        "P { x: 1, y: 2 } [ P { x: 1, y: 2 } ] MyMap(1) [Map] { 1 => 2 } MyArr(2) [ 1, 2 ]\n",
        id="class-instances",
    ),
    pytest.param(
        "console.log(Object.assign(Object.create({ [Symbol.toStringTag]: 'T' }), { x: 1 }), Math, JSON)",
        "Object [T] { x: 1 } Object [Math] {} Object [JSON] {}\n",
        id="to-string-tag",
    ),
    pytest.param(
        "console.log({ 'key with space': 1, valid_id: 2, 'ünï': 3, 'a\\nb': 4, [Symbol('a b')]: 5 })",
        ("{\n  'key with space': 1,\n  valid_id: 2,\n  'ünï': 3,\n  'a\\nb': 4,\n  [Symbol(a b)]: 5\n}\n"),
        id="quoted-keys",
    ),
    pytest.param(
        (
            "console.log({ a: [{ x: 1, y: 'two' }, { x: 3, y: 'four' }], b: 'some longer string to push "
            "it', c: new Map([[1, { deep: true }]]) })"
        ),
        (
            "{\n"
            "  a: [ { x: 1, y: 'two' }, { x: 3, y: 'four' } ],\n"
            "  b: 'some longer string to push it',\n"
            "  c: Map(1) { 1 => { deep: true } }\n"
            "}\n"
        ),
        id="nested-layout",
    ),
    pytest.param(
        "console.log(Array.from({ length: 4 }, (_, i) => ({ id: i, name: 'item' + i })))",
        (
            "[\n"
            "  { id: 0, name: 'item0' },\n"
            "  { id: 1, name: 'item1' },\n"
            "  { id: 2, name: 'item2' },\n"
            "  { id: 3, name: 'item3' }\n"
            "]\n"
        ),
        id="list-of-records",
    ),
    pytest.param(
        "console.log(Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i).repeat(i % 7 + 1)))",
        (
            "[\n"
            "  'a',       'bb',      'ccc',\n"
            "  'dddd',    'eeeee',   'ffffff',\n"
            "  'ggggggg', 'h',       'ii',\n"
            "  'jjj',     'kkkk',    'lllll',\n"
            "  'mmmmmm',  'nnnnnnn', 'o',\n"
            "  'pp',      'qqq',     'rrrr',\n"
            "  'sssss',   'tttttt',  'uuuuuuu',\n"
            "  'v',       'ww',      'xxx',\n"
            "  'yyyy',    'zzzzz'\n"
            "]\n"
        ),
        id="string-grid",
    ),
    pytest.param(
        (
            "console.log(Object.assign(() => {}, { a: 1 }), Object.assign(class Q {}, { s: 2 }), "
            "Object.assign(new Date(0), { a: 1 }), Object.assign(/x/, { b: 2 }))"
        ),
        ("[Function (anonymous)] { a: 1 } [class Q] { s: 2 } 1970-01-01T00:00:00.000Z { a: 1 } /x/ { b: 2 }\n"),
        id="props-on-special",
    ),
    pytest.param(
        ("console.log(Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }), { ['__proto__']: 1 })"),
        "{} { ['__proto__']: 1 }\n",
        id="non-enumerable",
    ),
    pytest.param(
        "console.log([1, 2, 3].keys(), (function* () {})())",
        "Object [Array Iterator] {} Object [Generator] {}\n",
        id="iterators",
    ),
    pytest.param(
        "console.log('%s|%d|%i|%f|%j|%c|%%|%x', 'str', 42.5, 42.5, '3.5abc', { a: 1 }, 'css')",
        'str|42.5|42|3.5|{"a":1}||%|%x\n',
        id="specifiers",
    ),
    pytest.param(
        "console.log('%s', { a: { b: { c: 1 } } }, 'extra', 5)",
        "{ a: [Object] } extra 5\n",
        id="specifier-s-object",
    ),
    pytest.param(
        (
            "console.log('%d', '0x10'); console.log('%s', 5n, -0); console.log('%d', -0, '%s'); "
            "console.log('%i %f %d', '42.9px', '1e3', { valueOf() { return 7 } })"
        ),
        ("16\n5n -0\n-0 %s\n42 1000 7\n"),
        id="specifier-numbers",
    ),
    pytest.param(
        "console.log('%o', [1, 2]); console.log('%O', { a: { b: 1 } })",
        ("[ 1, 2, [length]: 2 ]\n{ a: { b: 1 } }\n"),
        id="specifier-o",
    ),
    pytest.param(
        ("console.log(); console.log('%s'); console.log('%', 1); console.log('100%', 'x'); console.log('%s%s', 'a')"),
        ("\n%s\n% 1\n100% x\na%s\n"),
        id="specifier-leftovers",
    ),
    pytest.param(
        "console.log('%s', { toString() { return 'custom!' } }, '%s')",
        "custom! %s\n",
        id="specifier-custom-to-string",
    ),
    pytest.param(
        "const cyc = {}; cyc.c = cyc; console.log('%j %j', { a: [1, { b: 2 }] }, cyc)",
        '{"a":[1,{"b":2}]} [Circular]\n',
        id="specifier-json",
    ),
    pytest.param(
        "console.table([{ a: 1, b: 'x' }, { a: 2, c: true }]); console.table([[1, 2], [3, 4]])",
        (
            "┌─────────┬───┬─────┬──────┐\n"
            "│ (index) │ a │ b   │ c    │\n"
            "├─────────┼───┼─────┼──────┤\n"
            "│ 0       │ 1 │ 'x' │      │\n"
            "│ 1       │ 2 │     │ true │\n"
            "└─────────┴───┴─────┴──────┘\n"
            "┌─────────┬───┬───┐\n"
            "│ (index) │ 0 │ 1 │\n"
            "├─────────┼───┼───┤\n"
            "│ 0       │ 1 │ 2 │\n"
            "│ 1       │ 3 │ 4 │\n"
            "└─────────┴───┴───┘\n"
        ),
        id="table",
    ),
    pytest.param(
        (
            "console.table([1, 'a', { a: 1 }]); console.table(new Map([['k', { v: 1 }]])); "
            "console.table(new Set([1])); console.table(5)"
        ),
        (
            "┌─────────┬───┬────────┐\n"
            "│ (index) │ a │ Values │\n"
            "├─────────┼───┼────────┤\n"
            "│ 0       │   │ 1      │\n"
            "│ 1       │   │ 'a'    │\n"
            "│ 2       │ 1 │        │\n"
            "└─────────┴───┴────────┘\n"
            "┌───────────────────┬─────┬──────────┐\n"
            "│ (iteration index) │ Key │ Values   │\n"
            "├───────────────────┼─────┼──────────┤\n"
            "│ 0                 │ 'k' │ { v: 1 } │\n"
            "└───────────────────┴─────┴──────────┘\n"
            "┌───────────────────┬────────┐\n"
            "│ (iteration index) │ Values │\n"
            "├───────────────────┼────────┤\n"
            "│ 0                 │ 1      │\n"
            "└───────────────────┴────────┘\n"
            "5\n"
        ),
        id="table-kinds",
    ),
    pytest.param(
        (
            "console.table({ r1: { c: 1 }, r2: { c: 2 } }); console.table([{ a: { b: 1, c: 2, d: 3 }, "
            "e: [1, 2, 3, 4, 5] }], ['a'])"
        ),
        (
            "┌─────────┬───┐\n"
            "│ (index) │ c │\n"
            "├─────────┼───┤\n"
            "│ r1      │ 1 │\n"
            "│ r2      │ 2 │\n"
            "└─────────┴───┘\n"
            "┌─────────┬──────────┐\n"
            "│ (index) │ a        │\n"
            "├─────────┼──────────┤\n"
            "│ 0       │ [Object] │\n"
            "└─────────┴──────────┘\n"
        ),
        id="table-columns",
    ),
    pytest.param(
        (
            "console.group('G'); console.log('in\\nside'); console.group(); console.log('deeper'); "
            "console.groupEnd(); console.groupEnd(); console.log('out')"
        ),
        ("G\n  in\n  side\n    deeper\nout\n"),
        id="group",
    ),
    pytest.param(
        "console.count(); console.count(); console.count('x'); console.countReset(); console.count()",
        ("default: 1\ndefault: 2\nx: 1\ndefault: 1\n"),
        id="count",
    ),
    pytest.param(
        "console.dir('str'); console.dir({ a: { b: { c: {} } } }, { depth: 0 })",
        ("'str'\n{ a: [Object] }\n"),
        id="dir",
    ),
    pytest.param(
        "console.info('i'); console.debug('d')",
        ("i\nd\n"),
        id="info-debug-go-to-stdout",
    ),
]


@pytest.mark.parametrize(("code", "expected"), NODE_CONSOLE_OUTPUT)
def test_console_output_matches_node(run_js: RunJs, code: str, expected: str) -> None:
    outcome = run_js(code)
    assert outcome["error"] is None
    assert outcome["stdout"] == expected
