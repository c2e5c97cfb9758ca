"""Statement boundaries: blanked TypeScript means what the TypeScript compiler makes of it, automatic semicolons
included, and JavaScript comes back unchanged.

The generated cases (``boundary_cases.py``) are each checked against the compiler's output kept on file, by
running both programs in V8 with a recorder for every free name (``recorder.js``). A test re-derives the file
from the compiler itself when Node and the npm packages are there, and compares syntax trees with ``acorn``.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from py_mini_racer import MiniRacer

from sandbox_server.sandbox.source import Statement, analyze
from tests.sandbox.boundary_cases import TYPESCRIPT_VERSION, generate, load_expectations, node_path, run_oracle

RECORDER = Path(__file__).with_name("recorder.js")
CASES = generate()
EXPECTATIONS = load_expectations()

# Cases whose blanked code does not mean what the compiler makes of them, and why.
KNOWN_DIFFERENCES = {
    "as-typeof/less-than": "tree-sitter reads no statement in `x as typeof z` then `< z` on the next line",
    "as-qualified/less-than": "tree-sitter reads no statement in `x as N.T` then `< z` on the next line",
    "annotation-definite/equals": "tree-sitter reads no `let a!: number` with `= 5` on the next line",
    "type-alias/dot": "tree-sitter reads no type alias whose qualified name goes on to the next line",
    "instantiation/assignment": "both grammars read `f<string>` then `z = 1` as comparisons, which V8 refuses",
    "new-generic/assignment": "both grammars read `new Map<K, V>` then `z = 1` as comparisons, which V8 refuses",
    "instantiation/angle-brackets": "the compiler reads `f<string>` then `<T>(z)` as comparisons around `(z)`",
    "new-generic/angle-brackets": "the compiler reads `new Map<K, V>` then `<T>(z)` as comparisons around `(z)`",
    "type-assertion/angle-brackets": "the compiler reads `<any>x` then `<T>(z)` as a call of x",
}


@pytest.fixture(scope="module")
def recorder() -> Iterator[MiniRacer]:
    engine = MiniRacer()
    engine.eval(RECORDER.read_text(encoding="utf-8"))
    yield engine
    engine.close()


def record(engine: MiniRacer, code: str, form: str) -> dict[str, Any]:
    """What ``code`` does when run in ``form`` (see ``recorderRun``)."""
    result = engine.eval(f"recorderRun({json.dumps(code)}, {json.dumps(form)})")
    if not isinstance(result, str):
        result = result.get(timeout=10)
    answer: dict[str, Any] = json.loads(result)
    return answer


def is_javascript(engine: MiniRacer, code: str) -> bool:
    return bool(engine.eval(f"recorderIsJavaScript({json.dumps(code)})"))


def _form(code: str) -> str:
    return "async" if re.search(r"\bawait\b", code) else "script"


def _assert_only_blanked(code: str, stripped: str) -> None:
    assert len(stripped) == len(code)
    for before, after in zip(code, stripped, strict=True):
        assert after == before or (after in " ;" and before not in "\r\n\u2028\u2029")


def test_the_compilers_reading_of_every_generated_case_is_on_file() -> None:
    assert {case.name: case.code for case in CASES} == {name: code for name, (code, _) in EXPECTATIONS.items()}
    assert len(CASES) >= 3000
    assert sum(tsc is not None for _, tsc in EXPECTATIONS.values()) >= 2000


def test_every_known_difference_is_a_case_the_compiler_accepts() -> None:
    assert all(EXPECTATIONS[name][1] is not None for name in KNOWN_DIFFERENCES)


def _param(name: str) -> Any:
    if name in KNOWN_DIFFERENCES:
        return pytest.param(name, id=name, marks=pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name], strict=True))
    return pytest.param(name, id=name)


@pytest.mark.parametrize("name", [_param(case.name) for case in CASES])
def test_each_case_means_what_the_typescript_compiler_makes_of_it(recorder: MiniRacer, name: str) -> None:
    """JavaScript comes back as it is; TypeScript that the compiler accepts runs as the compiler's output runs."""
    code, compiled = EXPECTATIONS[name]
    analysis = analyze(code)
    _assert_only_blanked(code, analysis.code)
    if is_javascript(recorder, code):
        assert analysis.code == code
        return
    if compiled is None:
        return  # the compiler refuses it too: only blanking is asked for
    form = _form(code)
    expected = record(recorder, compiled, form)
    assert is_javascript(recorder, analysis.code), analysis.code
    assert record(recorder, analysis.code, form) == expected, analysis.code
    statement = analysis.last_statement
    if form == "script" and statement is not None and statement.kind == "expression":
        # The runtime returns the last expression of an async body: that gives the script's completion value.
        assert record(recorder, _returning(analysis.code, statement), "function") == expected


def _returning(code: str, statement: Statement) -> str:
    return code[: statement.start] + "return (" + code[statement.start : statement.end] + "\n)" + code[statement.end :]


def test_the_compilers_reading_on_file_is_what_it_gives_and_its_syntax_tree_is_the_blanked_codes(
    recorder: MiniRacer,
) -> None:
    """Needs Node and the ``typescript`` and ``acorn`` npm packages (see ``boundary_cases.node_path``)."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    search_path = node_path()
    if search_path is None:
        pytest.skip("the typescript and acorn npm packages are not installed")
    records = [{"name": case.name, "code": case.code, "ours": analyze(case.code).code} for case in CASES]
    answer = run_oracle(records, search_path)
    version = str(answer["typescript"])
    if not version.startswith(TYPESCRIPT_VERSION + "."):
        pytest.skip(f"typescript {version} is installed; the file holds what {TYPESCRIPT_VERSION} gives")
    results = answer["results"]
    assert isinstance(results, list)
    stale = [result["name"] for result in results if result["tsc"] != EXPECTATIONS[result["name"]][1]]
    assert stale == []
    different = {
        result["name"]: result["detail"]
        for result in results
        if result["same"] is False
        and result["name"] not in KNOWN_DIFFERENCES
        and not is_javascript(recorder, EXPECTATIONS[result["name"]][0])
    }
    assert different == {}
    checked = sum(result["same"] is not None for result in results)
    assert checked >= 1500


# Pieces of JavaScript, many of which look like TypeScript somewhere.
_JAVASCRIPT_FRAGMENTS = [
    "a < b > (c)",
    "a < b.c > (d)",
    "f < T > (x)",
    "new Set < number > ([1])",
    "new A < B > (c)",
    "i < n >> 1",
    "a < (b > c)",
    "class A { abstract = 1 }",
    "class A { abstract; declare; readonly }",
    "class A { declare = 1; readonly = 2; type = 3; override = 4; public = 5 }",
    "class A { abstract\n  b = 1 }",
    "class A { public\n  x }",
    "class A { private() { return 1 } protected = 2 }",
    "class C { get\n[k]() { return 1 } }",
    "class B extends A { static s = 1; #p = 2; get g() { return this.#p } }",
    "let as = 1, type = 2, declare = 3, abstract = 4, satisfies = 5, readonly = 6",
    "as\nT",
    "x\nas\nT",
    "x\nsatisfies\nT",
    "type\nA = 1",
    "declare\nconst w = 1",
    "abstract\nclass Q {}",
    "interface\nI",
    "o = { as: 1, type: 2, declare: 3, abstract: 4 }",
    "o.as.satisfies.type",
    "o = { get: 1, set: 2, static: 3 }",
    "x\n(y)",
    "x\n[0]",
    "x\n`t`",
    "x\n!y",
    "a\n++b",
    "x = y\n/2/g",
    "y = x ? a : b",
    "c ? (d) : e",
    "x ?? y",
    "a?.b?.[c]?.(d)",
    "label: for (;;) break label",
    "if (a) b\nelse c",
    "/re/g.test(s)",
    "`a${b < c}d`",
    "async function f() { await g() }",
    "await z",
    "function f(a = 1, { b } = {}) { return a }",
    "(a, b) => a < b",
    "let { a: b } = c",
    "// type T = number",
    "/* interface I {} */",
    "'x as any'",
    "a\n<b>\n(c)",
    "typeof x === 'string'",
    "k in o",
    "x instanceof Y",
    "for (const x of xs) { a < b }",
    "switch (x) { case 1: y }",
    "try { f() } catch { g() }",
    "enums = 2",
    "implements = 1",
    "{ a: 1, b }",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    st.lists(
        st.tuples(st.sampled_from(_JAVASCRIPT_FRAGMENTS), st.sampled_from(["\n", ";\n", "; ", "\n\n", " "])),
        min_size=1,
        max_size=5,
    ).map(lambda pieces: "".join(fragment + separator for fragment, separator in pieces))
)
def test_javascript_made_of_look_alike_fragments_comes_back_unchanged(recorder: MiniRacer, code: str) -> None:
    assume(is_javascript(recorder, code))
    assert analyze(code).code == code


@pytest.mark.parametrize(
    ("code", "stripped"),
    [
        pytest.param("y = x as any\n[0]", "y = x ;     \n[0]", id="as-then-bracket"),
        pytest.param("y = x satisfies object\n`t`", "y = x ;               \n`t`", id="satisfies-then-template"),
        pytest.param("y = x as T\n(z)", "y = x ;   \n(z)", id="as-then-paren"),
        pytest.param("let a: number\n[0]", "let a        \n[0]", id="annotation-then-bracket"),
        pytest.param("type T = string\n[0]", ";              \n[0]", id="type-alias-then-bracket"),
        pytest.param("y = x as string\n| number", "y = x          \n        ", id="union-on-the-next-line"),
        pytest.param("y = x as N.T\n.k", "y = x       \n  ", id="qualified-name-on-the-next-line"),
        pytest.param("y = x as any\n- 1", "y = x       \n- 1", id="binary-operator-goes-on"),
        pytest.param("let a: number\n= 5", "let a        \n= 5", id="initializer-on-the-next-line"),
    ],
)
def test_a_line_after_a_type_starts_a_statement_where_the_typescript_compiler_starts_one(
    code: str, stripped: str
) -> None:
    assert analyze(code).code == stripped


def test_the_line_after_as_any_is_no_index_of_the_value_before_it(recorder: MiniRacer) -> None:
    analysis = analyze("const x = [7, 8]; let y\ny = x as any\n[0]")
    assert record(recorder, analysis.code, "script")["value"] == "[0]"
    statement = analysis.last_statement
    assert statement is not None
    assert analysis.code[statement.start : statement.end] == "[0]"


@pytest.mark.parametrize(
    ("code", "stripped"),
    [
        pytest.param(
            "let t: number = 1\nclass A { abstract = 1 }", "let t         = 1\nclass A { abstract = 1 }", id="abstract"
        ),
        pytest.param(
            "let t: number = 1\nclass A { abstract\n  b = 1 }",
            "let t         = 1\nclass A { abstract\n  b = 1 }",
            id="abstract-alone-on-its-line",
        ),
        pytest.param(
            "let t: number = 1\nclass A { declare; readonly\n  x; public\n  y }",
            "let t         = 1\nclass A { declare; readonly\n  x; public\n  y }",
            id="modifiers-alone-on-their-lines",
        ),
        pytest.param(
            "let t: number = 1\nabstract\nclass B {}", "let t         = 1\nabstract\nclass B {}", id="statement"
        ),
        pytest.param(
            "let t: number = 1\nclass A { abstract x: number; y = 1 }",
            "let t         = 1\nclass A { ;                 ; y = 1 }",
            id="a-modifier-stays-a-modifier",
        ),
    ],
)
def test_a_keyword_that_typescript_reads_as_a_name_is_left_as_a_name(code: str, stripped: str) -> None:
    assert analyze(code).code == stripped


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("class A { abstract = 1 }\nnew A().abstract", id="field-named-abstract"),
        pytest.param("const a = 1, b = { c: 2 }, d = 0;\na < b.c > (d)", id="comparisons-around-a-member"),
        pytest.param("const s = new Set < number > ([1])", id="comparisons-after-new"),
        pytest.param("let f = 1, T = 2, x = 3;\nf<T>(x)", id="comparisons-without-spaces"),
        pytest.param("const data = await load();\nreturn a < b > (c)", id="with-await-and-return"),
        pytest.param("class A { type = 1 } as\nT", id="class-then-a-name-as"),
        pytest.param("interface\nI\n{ a: 1, b }", id="names-interface-and-i-then-a-block"),
    ],
)
def test_javascript_that_the_typescript_grammar_reads_as_types_comes_back_unchanged(code: str) -> None:
    analysis = analyze(code)
    assert analysis.code is code
    assert not analysis.typescript


def test_javascript_with_a_field_named_abstract_has_a_last_statement() -> None:
    statement = analyze("class A { abstract = 1 }\nnew A().abstract").last_statement
    assert statement is not None
    assert (statement.kind, statement.line) == ("expression", 2)


def test_typescript_by_other_signs_still_reads_an_ambiguous_call_as_a_call() -> None:
    assert analyze("const x: number = f<T>(y)").code == "const x         = f   (y)"
