"""Source analysis: TypeScript blanked in place so V8 runs it, plain JavaScript untouched, the last statement found."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from py_mini_racer import MiniRacer

import js_runtime
from sandbox_server.sandbox.source import Analysis, Statement, analyze
from tests.sandbox.typescript_cases import CASES

LINE_TERMINATORS = frozenset("\n\r\u2028\u2029")


@pytest.fixture(scope="module")
def engine() -> Iterator[MiniRacer]:
    racer = MiniRacer()
    yield racer
    racer.close()


def run(engine: MiniRacer, code: str) -> object:
    """The completion value of ``code``, run as a script in a fresh scope of the shared engine."""
    # Each snippet runs inside its own block-scoped eval so that `const`s of one do not clash with the next.
    return engine.eval(f"(0, eval)({_js_string(code)})")


def _js_string(text: str) -> str:
    return json.dumps(text)


TYPESCRIPT = [pytest.param(code, expected, id=name) for name, code, expected in CASES]


def test_the_typescript_table_is_large_and_its_names_are_unique() -> None:
    names = [name for name, _, _ in CASES]
    assert len(names) >= 80
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(("code", "expected"), TYPESCRIPT)
def test_typescript_runs_as_javascript_with_the_value_it_has_as_typescript(
    engine: MiniRacer, code: str, expected: object
) -> None:
    analysis = analyze(code)
    assert analysis.typescript
    assert analysis.unsupported is None
    assert analysis.code != code
    assert run(engine, analysis.code) == expected


@pytest.mark.parametrize(("code", "expected"), TYPESCRIPT)
def test_blanking_leaves_every_other_utf16_unit_and_every_line_break_where_it_was(code: str, expected: object) -> None:
    del expected
    stripped = analyze(code).code
    original_units = _utf16_units(code)
    stripped_units = _utf16_units(stripped)
    assert len(stripped_units) == len(original_units)
    for index, (before, after) in enumerate(zip(original_units, stripped_units, strict=True)):
        if before in LINE_TERMINATORS:
            assert after == before, f"line break at UTF-16 unit {index} changed"
        else:
            assert after in (before, " ", ";"), f"UTF-16 unit {index}: {before!r} became {after!r}"


@pytest.mark.parametrize(
    "code", [pytest.param(code, id=name) for name, code, _ in CASES if all(ord(char) <= 0xFFFF for char in code)]
)
def test_blanking_keeps_python_string_indices_when_no_astral_character_is_blanked(code: str) -> None:
    # A blanked astral character takes two spaces, as it takes two UTF-16 units (tested below).
    stripped = analyze(code).code
    assert len(stripped) == len(code)
    kept = [index for index, char in enumerate(stripped) if char not in " ;"]
    assert all(stripped[index] == code[index] for index in kept)


def _utf16_units(text: str) -> list[str]:
    data = text.encode("utf-16-le", "surrogatepass")
    units = [data[i : i + 2].decode("utf-16-le", "surrogatepass") for i in range(0, len(data), 2)]
    return units


def test_blanking_an_astral_character_takes_two_columns_as_javascript_counts_them() -> None:
    code = "const s: '😀' = '😀'; s"
    analysis = analyze(code)
    assert analysis.code == "const s       = '😀'; s"
    assert analysis.last_statement == Statement("expression", 21, 22, 1, 23)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("1+1", 2, id="one-plus-one"),
        pytest.param("const a = 1, b = 2;\na < b", True, id="less-than"),
        pytest.param("const a = 3, b = 2, c = 1;\na > b > c", False, id="chained-comparison"),
        pytest.param("const a = 1, b = 2, c = 0;\na < b > (c)", True, id="comparison-that-looks-like-a-generic-call"),
        pytest.param("class A {}; const B = 1, c = 2;\nString(new A < B > (c))", "false", id="new-then-comparisons"),
        pytest.param("const x = 5;\nx > 3 ? 'big' : 'small'", "big", id="ternary"),
        pytest.param("const ok = true;\nok ? (1) : 2", 1, id="ternary-with-parenthesised-branch"),
        pytest.param("const f = (x) => x * 2;\nf(4)", 8, id="arrow"),
        pytest.param("const f = async (x) => x;\ntypeof f", "function", id="async-arrow"),
        pytest.param("const o = { a: { b: 1 } };\no?.a?.b + (o.z?.y ?? 1)", 2, id="optional-chaining"),
        pytest.param(
            "const o = { type: 'x', as: 1, declare: 2 };\no.type + o.as + o.declare", "x12", id="keywords-as-keys"
        ),
        pytest.param(
            "let type = 1, as = 2, declare = 3, abstract = 4;\ntype + as + declare + abstract",
            10,
            id="keywords-as-names",
        ),
        pytest.param("let type = 'a'\ntype\n'b'", "b", id="type-alone-on-a-line"),
        pytest.param("let interfaces = 2;\ninterfaces", 2, id="interface-like-name"),
        pytest.param("const re = /a<b>c:d/g;\n'xa<b>c:d'.replace(re, '!')", "x!", id="regex"),
        pytest.param(
            "const s = `${1 < 2}: a as string <T>`;\ns", "true: a as string <T>", id="template-with-ts-looking-text"
        ),
        pytest.param("// x: number\n/* interface A {} */\n'comments'", "comments", id="comments"),
        pytest.param(
            "outer: for (let i = 0; i < 3; i++) { for (;;) { break outer; } }\n'labels'", "labels", id="labels"
        ),
        pytest.param("const xs = [3, 1, 2];\nxs.filter((x) => x !== 1).length", 2, id="not-equal"),
        pytest.param("let n = 0;\nn++;\n!n", False, id="logical-not"),
        pytest.param("const a = 1;\na!==2", True, id="strict-not-equal-without-spaces"),
        pytest.param(
            "class P { #x = 1; static s = 2; get x() { return this.#x; } }\nnew P().x + P.s", 3, id="class-fields"
        ),
        pytest.param(
            "class Q { declare = 1; readonly = 2; }\nconst q = new Q();\nq.declare + q.readonly",
            3,
            id="fields-named-like-modifiers",
        ),
        pytest.param(
            "function f(a = 1, { b } = { b: 2 }, ...rest) { return a + b + rest.length; }\nf()", 3, id="parameters"
        ),
        pytest.param("const { a, ...rest } = { a: 1, b: 2 };\nrest.b", 2, id="destructuring"),
        pytest.param("function* g() { yield 1; }\n[...g()].length", 1, id="generator"),
        pytest.param("const big = 10n ** 3n;\nString(big)", "1000", id="bigint"),
        pytest.param("const x = 0.5;\nx ? .5 : 1", 0.5, id="ternary-with-leading-dot-number"),
        pytest.param("let s = 0;\nfor (const k in { a: 1, b: 2 }) s++;\ns", 2, id="for-in"),
        pytest.param("switch (2) { case 1: 'one'; break; default: 'other' }", "other", id="switch"),
        pytest.param("var x = 1\n;[1, 2].forEach((v) => { x += v })\nx", 4, id="leading-semicolon-style"),
        pytest.param(
            "const obj = { get a() { return 1; }, set a(v) {}, async m() {}, *g() {} };\nobj.a", 1, id="accessors"
        ),
    ],
)
def test_plain_javascript_comes_back_as_the_same_string_and_runs(
    engine: MiniRacer, code: str, expected: object
) -> None:
    analysis = analyze(code)
    assert analysis.code is code
    assert not analysis.typescript
    assert analysis.unsupported is None
    assert run(engine, code) == expected


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("let x = ;", id="missing-initializer"),
        pytest.param("function (", id="unfinished"),
        pytest.param("const a = 1\nconst a: = 2", id="broken-annotation"),
        pytest.param("if (x) {", id="unclosed-block"),
        pytest.param("<div>hello</div>", id="jsx"),
    ],
)
def test_code_that_does_not_parse_comes_back_unchanged_for_v8_to_report(code: str) -> None:
    assert analyze(code) == Analysis(code, False, None, None)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("let x: number = ;", "let x         = ;", id="annotation-before-the-mistake"),
        pytest.param(
            "type R = { v: number };\nconst rs: R[] = [];\nconst t: number = rs.reduce((s: number, r: R) => s + r.v, 0",
            ";                      \nconst rs      = [];\nconst t: number = rs.reduce((s: number, r: R) => s + r.v, 0",
            id="types-away-from-the-mistake",
        ),
    ],
)
def test_typescript_that_does_not_parse_is_blanked_away_from_the_mistake(code: str, expected: str) -> None:
    # V8 then reports the real mistake where it is, not "Unexpected token ':'" at the first annotation.
    analysis = analyze(code)
    assert analysis.code == expected
    assert analysis.typescript is True
    assert analysis.last_statement is None


def test_empty_code_has_no_last_statement() -> None:
    assert analyze("") == Analysis("", False, None, None)
    assert analyze("  // nothing\n").last_statement is None


@pytest.mark.parametrize(
    ("code", "construct", "line", "column", "advice"),
    [
        pytest.param("enum Color { Red, Green }\nColor.Red", "enum", 1, 1, "Object.freeze({ Red: 0", id="enum"),
        pytest.param("let a = 1;\n  const enum Dir { Up = 1 }", "enum", 2, 3, "Object.freeze", id="const-enum"),
        pytest.param("export enum E { A = 'a' }", "enum", 1, 8, "Object.freeze", id="exported-enum"),
        pytest.param("namespace Geo {\n  export const r = 1;\n}", "namespace", 1, 1, "as an object", id="namespace"),
        pytest.param("module Util { }", "namespace", 1, 1, "as an object", id="module"),
        pytest.param(
            "class P {\n  constructor(public x: number) {}\n}",
            "parameter_property",
            2,
            15,
            "this.x = x",
            id="public-param",
        ),
        pytest.param(
            "class P { constructor(private readonly y: string) {} }",
            "parameter_property",
            1,
            23,
            "this.x",
            id="private",
        ),
        pytest.param(
            "class P { constructor(readonly z = 1) {} }", "parameter_property", 1, 23, "this.x", id="readonly"
        ),
        pytest.param(
            "class P { constructor(protected w?: number) {} }", "parameter_property", 1, 23, "this", id="optional"
        ),
        pytest.param("@sealed\nclass S {}", "decorator", 1, 1, "yourself", id="class-decorator"),
        pytest.param("class S {\n  @log m() {}\n}", "decorator", 2, 3, "yourself", id="method-decorator"),
    ],
)
def test_constructs_without_a_blank_translation_are_reported_with_a_plain_javascript_rewrite(
    code: str, construct: str, line: int, column: int, advice: str
) -> None:
    unsupported = analyze(code).unsupported
    assert unsupported is not None
    assert (unsupported.construct, unsupported.line, unsupported.column) == (construct, line, column)
    named = {
        "enum": "enum",
        "namespace": "namespace",
        "parameter_property": "parameter propert",
        "decorator": "decorator",
    }
    assert named[construct] in unsupported.message
    assert advice in unsupported.message


def test_the_first_unsupported_construct_is_the_one_reported() -> None:
    code = "interface A { a: number }\nnamespace N {}\nenum E { X }"
    unsupported = analyze(code).unsupported
    assert unsupported is not None
    assert (unsupported.construct, unsupported.line) == ("namespace", 2)


def test_an_ambient_enum_or_namespace_is_blanked_rather_than_refused() -> None:
    analysis = analyze("declare enum E { A }\ndeclare namespace N { const x: number }\n1")
    assert analysis.unsupported is None
    assert analysis.code.strip(" ;\n") == "1"


def test_an_unsupported_construct_still_gets_the_rest_of_its_code_stripped() -> None:
    analysis = analyze("let n: number = 1;\nenum E { A }")
    assert analysis.unsupported is not None
    assert analysis.code.startswith("let n         = 1;")


def test_export_is_blanked_only_in_typescript() -> None:
    javascript = "export const a = 1;"
    assert analyze(javascript).code is javascript
    assert analyze("export const a: number = 1;").code == "       const a         = 1;"


def test_a_generic_call_counts_as_typescript_when_other_types_are_present() -> None:
    assert analyze("const a = 1, b = 2, c = 0;\na < b > (c)").code.endswith("a < b > (c)")
    assert analyze("let v: number = 0;\nv = id<Item>(v)").code.endswith("v = id      (v)")


def _last(code: str) -> tuple[str, str] | None:
    statement = analyze(code).last_statement
    if statement is None:
        return None
    return statement.kind, analyze(code).code[statement.start : statement.end]


@pytest.mark.parametrize(
    ("code", "kind", "text"),
    [
        pytest.param("await null; { 1 } 7", "expression", "7", id="after-await-and-block"),
        pytest.param("let n = 0; for await (const x of [1, 2]) { n++ } n", "expression", "n", id="after-for-await"),
        pytest.param(
            "const r = await f(); if (r > 2) { console.log('big'); }\n({ r })",
            "expression",
            "({ r })",
            id="paren-after-if",
        ),
        pytest.param(
            "const mean = 1, median = 2;\n{ mean, median }", "object_literal_block", "{ mean, median }", id="shorthand"
        ),
        pytest.param("{ mean, median }", "object_literal_block", "{ mean, median }", id="only-shorthand"),
        pytest.param(
            "const r = await f(); for (const x of [r]) { g(x); }\n[r, 1]",
            "expression",
            "[r, 1]",
            id="bracket-after-for",
        ),
        pytest.param("function f() {}\n(1, 2)", "expression", "(1, 2)", id="paren-after-function"),
        pytest.param("const b = 2;\n{ a: 1, b }", "object_literal_block", "{ a: 1, b }", id="pair-and-shorthand"),
        pytest.param("const x = {};\n{ ...x, y: 2 }", "object_literal_block", "{ ...x, y: 2 }", id="spread"),
        pytest.param("{ a: 1 }", "object_literal_block", "{ a: 1 }", id="one-pair-reads-as-label"),
        pytest.param(
            "const s = 1\n{ s, n: s * 2 };  // done", "object_literal_block", "{ s, n: s * 2 }", id="error-as-block"
        ),
        pytest.param("x = 1\n{ 'a-b': 1, c: [1, 2], f() { return 1 } }", "object_literal_block", None, id="methods"),
        pytest.param("let s: number = 1; { s, twice: s * 2 as number }", "object_literal_block", None, id="typescript"),
        pytest.param("if (x) { y }", "other", "if (x) { y }", id="if"),
        pytest.param("{ 1 }", "other", "{ 1 }", id="block"),
        pytest.param("{ a; b }", "other", "{ a; b }", id="block-of-statements"),
        pytest.param("let x = 1;", "other", "let x = 1;", id="declaration"),
        pytest.param("function f() {}", "other", "function f() {}", id="function"),
        pytest.param("return 5", "other", "return 5", id="return"),
        pytest.param("1 + 1 // the sum", "expression", "1 + 1", id="trailing-comment"),
        pytest.param("f();\n1 + 1;", "expression", "1 + 1", id="trailing-semicolon"),
        pytest.param("f();\n1 + 1;;\n/* end */\n", "expression", "1 + 1", id="semicolons-and-comment"),
        pytest.param("  1+1  ", "expression", "1+1", id="simple-with-spaces"),
        pytest.param("Math.max(1, 2)", "expression", "Math.max(1, 2)", id="simple-call"),
        pytest.param("await Promise.resolve(3)", "expression", "await Promise.resolve(3)", id="await"),
        pytest.param("const v = 1 as number; v satisfies number", "expression", "v", id="typescript-tail"),
        pytest.param("let x = 1\ntype T = number\n(x)", "expression", "(x)", id="after-type-alias"),
        pytest.param("x\ninterface I {}", "expression", "x", id="before-interface"),
    ],
)
def test_the_last_statement_is_found_as_a_repl_would_read_it(code: str, kind: str, text: str | None) -> None:
    found = _last(code)
    assert found is not None
    assert found[0] == kind
    if text is not None:
        assert found[1] == text


def test_a_statement_knows_its_line_and_column() -> None:
    statement = analyze("let a = 1;\n\n   a * 2;").last_statement
    assert statement == Statement("expression", 15, 20, 3, 4)


def test_an_object_literal_block_can_run_as_an_expression(engine: MiniRacer) -> None:
    analysis = analyze("const mean: number = 2, median: number = 3;\n{ mean, median }")
    statement = analysis.last_statement
    assert statement is not None
    assert statement.kind == "object_literal_block"
    code = analysis.code
    wrapped = code[: statement.start] + ";(" + code[statement.start : statement.end] + ")" + code[statement.end :]
    assert run(engine, f"JSON.stringify(eval({_js_string(wrapped)}))") == '{"mean":2,"median":3}'


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("1+1", id="sum"),
        pytest.param("  Math.max(a, b) * 2", id="call"),
        pytest.param("x => x + 1", id="arrow"),
        pytest.param("xs.map(x => x * 2)", id="map"),
        pytest.param("a > b", id="comparison"),
        pytest.param("1+1\n", id="trailing-line-break"),
        pytest.param("\n\n  total * 2  \n", id="surrounding-blank-lines"),
        pytest.param("a[0][1]", id="subscripts"),
    ],
)
def test_the_shortcut_for_one_line_expressions_agrees_with_the_parser(code: str) -> None:
    from sandbox_server.sandbox.source import statements as source

    shortcut = analyze(code)
    assert source._simple_expression(code) is not None
    parsed = analyze(code + "\n// a comment takes the parser's path")
    assert source._simple_expression(code + "\n// a comment takes the parser's path") is None
    assert shortcut.last_statement == parsed.last_statement


@pytest.mark.parametrize(("code", "expected"), TYPESCRIPT)
def test_stripped_code_has_no_typescript_left(code: str, expected: object) -> None:
    del expected
    stripped = analyze(code).code
    again = analyze(stripped)
    assert again.code is stripped
    assert not again.typescript


def test_windows_line_breaks_are_kept_and_counted_once(engine: MiniRacer) -> None:
    code = "const a: number = 2;\r\nconst b: number = 3;\r\na * b\r\n"
    analysis = analyze(code)
    assert analysis.code == "const a         = 2;\r\nconst b         = 3;\r\na * b\r\n"
    assert analysis.last_statement == Statement("expression", 44, 49, 3, 1)
    assert run(engine, analysis.code) == 6


def test_a_lone_surrogate_in_the_code_does_not_stop_the_analysis() -> None:
    code = 'let s: string = "\ud800";\ns.length'
    analysis = analyze(code)
    assert analysis.code == 'let s         = "\ud800";\ns.length'
    assert analysis.last_statement == Statement("expression", 21, 29, 2, 1)


@pytest.mark.parametrize("code", ["using x = null", "await using x = null", "let a = 1;\nusing y = a"])
def test_a_using_declaration_is_not_an_expression(code: str) -> None:
    statement = analyze(code).last_statement
    assert statement is not None
    assert statement.kind == "other"


def test_a_variable_named_using_is_left_alone_though_the_grammar_cannot_read_it() -> None:
    code = "let using = 1;\nusing = 2"
    assert analyze(code) == Analysis(code, False, None, None)


ORACLE = Path(__file__).with_name("typescript_oracle.js")


def test_the_expected_values_are_what_the_typescript_compiler_output_gives_under_node(tmp_path: Path) -> None:
    """Needs Node and the ``typescript`` npm package (found through NODE_PATH or npm's global root)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(CASES), encoding="utf-8")
    completed = subprocess.run(
        [node, str(ORACLE), str(cases)], capture_output=True, text=True, timeout=120, check=False
    )
    if completed.returncode == 3:
        pytest.skip("the typescript npm package is not installed")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert f"checked {len(CASES)}" in completed.stdout


@pytest.mark.parametrize(("code", "expected"), TYPESCRIPT)
def test_the_last_line_of_each_typescript_snippet_is_its_last_expression(code: str, expected: object) -> None:
    del expected
    analysis = analyze(code)
    statement = analysis.last_statement
    assert statement is not None
    assert statement.kind == "expression"
    last_line = analysis.code.rsplit("\n", 1)[-1]
    assert analysis.code[statement.start : statement.end] == last_line.strip().removesuffix(";").rstrip()
    assert statement.line == code.count("\n") + 1


_FRAGMENTS = [code[i : i + 40] for _, code, _ in CASES for i in range(0, len(code), 40)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=8)), max_size=6).map("".join))
def test_any_text_is_analysed_without_error_and_only_ever_blanked(code: str) -> None:
    analysis = analyze(code)
    original, stripped = _utf16_units(code), _utf16_units(analysis.code)
    assert len(stripped) == len(original)
    for before, after in zip(original, stripped, strict=True):
        assert after == before or (after in " ;" and before not in LINE_TERMINATORS)
    statement = analysis.last_statement
    if statement is not None:
        assert 0 <= statement.start <= statement.end <= len(analysis.code)


@pytest.mark.parametrize("code", ["1 +", "(1", "f(1))", "a]", "x =>", "1+1 // sum", "a\nb", "let x", "x as any"])
def test_the_shortcut_leaves_anything_unfinished_or_richer_to_the_parser(code: str) -> None:
    from sandbox_server.sandbox.source import statements as source

    assert source._simple_expression(code) is None


@pytest.mark.parametrize(
    ("code", "stripped", "kind"),
    [
        pytest.param("let a: number = 1;\nexport { a }", "let a         = 1;\n;           ", "other", id="list"),
        pytest.param(
            "let a: number = 1;\nexport default { a }",
            "let a         = 1;\n               { a }",
            "object_literal_block",
            id="default-object",
        ),
        pytest.param(
            "let a: number = 1;\nexport default a * 2",
            "let a         = 1;\n               a * 2",
            "expression",
            id="default-value",
        ),
        pytest.param(
            "let a: number = 1;\nexport * from './x'",
            "let a         = 1;\nexport * from './x'",
            "other",
            id="re-export",
        ),
    ],
)
def test_exports_in_typescript_lose_what_only_modules_mean(code: str, stripped: str, kind: str) -> None:
    analysis = analyze(code)
    assert analysis.code == stripped
    statement = analysis.last_statement
    assert statement is not None
    assert statement.kind == kind
    if kind != "other":
        assert statement.line == 2


@given(st.text(alphabet=st.characters(codec=None, exclude_categories=())))
def test_byte_offsets_map_to_the_python_index_of_each_character(text: str) -> None:
    from sandbox_server.sandbox.source.model import _Offsets, _utf8

    data = _utf8(text)
    offsets = _Offsets(text, data)
    byte = 0
    for index, char in enumerate(text):
        assert offsets.index(byte) == index
        byte += len(_utf8(char))
    assert offsets.index(len(data)) == len(text)


@pytest.mark.parametrize(
    "path", [pytest.param(path, id=path.name) for path in sorted(Path(js_runtime.__file__).parent.glob("*.js"))]
)
def test_the_runtimes_own_javascript_comes_back_unchanged(path: Path) -> None:
    code = path.read_text(encoding="utf-8")
    analysis = analyze(code)
    assert analysis.code is code
    assert analysis.unsupported is None
