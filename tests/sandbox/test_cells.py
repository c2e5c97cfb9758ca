"""Session cells: top-level declarations become globals that outlive the cell, and a cell runs again as it ran."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from sandbox_server.sandbox import SandboxLimits
from sandbox_server.sandbox.source import analyze
from sandbox_server.sandbox.source.cells import TRAILER, Cell, as_cell
from sandbox_server.sandbox.source.modules import rewrite_modules
from sandbox_server.sandbox.worker.isolate import Isolate
from sandbox_server.sandbox.worker.job import execute
from sandbox_server.sandbox.worker.options import run_options
from tests.sandbox.conftest import WAIT_S


def cell_of(code: str) -> Cell:
    """The cell of ``code`` as the worker makes it: module syntax and TypeScript gone, then the rewrite."""
    analysis = analyze(rewrite_modules(code))
    return as_cell(analysis.code, analysis.last_statement)


@pytest.mark.parametrize(
    ("code", "expected", "names"),
    [
        pytest.param("const x = 5; x * 2", ";     x = 5; x * 2", ("x",), id="const-then-expression"),
        pytest.param(
            "const {a, b: [c]} = obj, d = 1;",
            ";   ( {a, b: [c]} = obj, d = 1);" + TRAILER,
            ("a", "c", "d"),
            id="destructuring-and-declarators",
        ),
        pytest.param(
            "let [p, , q = p, ...rest] = arr",
            ";   [p, , q = p, ...rest] = arr" + TRAILER,
            ("p", "q", "rest"),
            id="array-pattern",
        ),
        pytest.param(
            "const {[k]: v, w = u, ...more} = o; v",
            ";   ( {[k]: v, w = u, ...more} = o); v",
            ("v", "w", "more"),
            id="computed-keys-and-defaults-bind-nothing",
        ),
        pytest.param("let x;", ";   x=void 0;" + TRAILER, ("x",), id="let-without-value-resets"),
        pytest.param("var a, b = 1, c", ";      b = 1   " + TRAILER, ("a", "b", "c"), id="var-without-value-keeps"),
        pytest.param("var x, {a} = o", "; (    {a} = o)" + TRAILER, ("x", "a"), id="var-dropped-before-a-pattern"),
        pytest.param("var x;", ";    ;" + TRAILER, ("x",), id="var-alone"),
        pytest.param(
            "class C extends B {\n  static i = new C()\n}\nnew C()",
            "{class C extends B {\n  static i = new C()\n}this.C=C}\nnew C()",
            ("C",),
            id="class",
        ),
        pytest.param(
            "f()\nfunction f() { return 1 }\nf()",
            "f()\nfunction f() { return 1 };this.f=f;\nf()",
            ("f",),
            id="function",
        ),
        pytest.param(
            "async function g() {}\nfunction* h() {}",
            "async function g() {};this.g=g;\nfunction* h() {};this.h=h;" + TRAILER,
            ("g", "h"),
            id="async-function-and-generator",
        ),
        pytest.param(
            "const r = await Promise.resolve(3); r * 2",
            ";     r = await Promise.resolve(3); r * 2",
            ("r",),
            id="top-level-await",
        ),
        pytest.param("'use strict'\nconst s = 1\ns", "'use strict'\n;     s = 1\ns", ("s",), id="after-a-directive"),
        pytest.param(
            "const x: number = 5;\nlet y: string;\nx",
            ";     x         = 5;\n;   y=void 0        ;\nx",
            ("x", "y"),
            id="typescript-blanked",
        ),
        pytest.param(
            "import fs from 'fs'", ";   ( { default: fs } = __importStatic('fs'));" + TRAILER, ("fs",), id="import"
        ),
        pytest.param("export const e = 1;\ne", "       ;     e = 1;\ne", ("e",), id="export"),
        pytest.param("const x = 1 // one", ";     x = 1 // one" + TRAILER, ("x",), id="trailer-after-a-comment"),
        pytest.param("let x = 1; x = 2; let y", ";   x = 1; x = 2; ;   y=void 0" + TRAILER, ("x", "y"), id="several"),
    ],
)
def test_top_level_declarations_become_writes_to_the_names_the_run_declares(
    code: str, expected: str, names: tuple[str, ...]
) -> None:
    cell = cell_of(code)
    assert cell.code == expected
    assert cell.names == names


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("x * 2 + y", id="no-declaration-word"),
        pytest.param("'const x = 1'; // let y", id="words-in-a-string-and-a-comment"),
        pytest.param("for (const x of [1]) {}\nif (a) { let b = 1 }\n() => { var c }", id="nested-declarations"),
        pytest.param("const x = ;", id="syntax-error"),
        pytest.param("const x;", id="const-without-value"),
        pytest.param("let {a};", id="pattern-without-value"),
        pytest.param("let a = 1; let a = 2", id="let-twice"),
        pytest.param("class A {}\nvar A = 1", id="class-and-var"),
        pytest.param("function f() {}\nconst f = 1", id="function-and-const"),
        pytest.param("const \\u0061 = 1", id="escaped-name"),
        pytest.param("const let = 1", id="let-as-a-lexical-name"),
    ],
)
def test_code_without_declarations_to_rewrite_or_that_v8_refuses_comes_back_unchanged(code: str) -> None:
    analysis = analyze(code)
    cell = as_cell(analysis.code, analysis.last_statement)
    assert cell.code is analysis.code
    assert cell.names == ()
    assert cell.last_statement is analysis.last_statement


@pytest.mark.parametrize(
    "code",
    [
        "const a = 1\nlet {b, c} = {b: a}\nvar d\nfunction f() {\n  return a\n}\nclass K {\n  m() {}\n}\na + b",
        "// comment\nconst é = { a: 1 }, \U0001d465 = 2\n\tlet [y] = [3]\ny",
        "const r = await f()\r\nlet s = r\r\ns",
    ],
)
def test_lines_stay_and_unchanged_lines_keep_every_column(code: str) -> None:
    cell = as_cell(code)
    new = cell.code.removesuffix(TRAILER)
    old_lines, new_lines = code.split("\n"), new.split("\n")
    assert len(new_lines) == len(old_lines)
    for old, line in zip(old_lines, new_lines, strict=True):
        if not any(word in old for word in ("const", "let", "var", "class", "function", "}")):
            assert line == old
        elif line != old and "(" not in line and "this." not in line and "void" not in line and "{" not in line:
            assert len(line.encode("utf-16-le")) == len(old.encode("utf-16-le"))  # keywords became blanks


@pytest.mark.parametrize(
    ("code", "text"),
    [
        pytest.param("const {a} = o; a.b", "a.b", id="after-a-closing-parenthesis"),
        pytest.param("class C {}; C.name", "C.name", id="after-a-class"),
        pytest.param("let é; é = 2; [é]", "[é]", id="non-ascii"),
        pytest.param("const s = 1; { s, n: s * 2 }", "{ s, n: s * 2 }", id="object-literal"),
        pytest.param("f(); function f() {}", "void 0", id="declaration-last"),
    ],
)
def test_the_last_statement_is_found_in_the_rewritten_code(code: str, text: str) -> None:
    cell = cell_of(code)
    statement = cell.last_statement
    assert statement is not None
    assert cell.code[statement.start : statement.end] == text
    line_start = cell.code.rfind("\n", 0, statement.start) + 1
    assert statement.column == statement.start - line_start + 1


def test_the_run_options_carry_the_names_only_for_a_cell() -> None:
    limits = SandboxLimits()
    assert json.loads(run_options(limits, cell_names=("a", "b")))["cellNames"] == ["a", "b"]
    assert "cellNames" not in json.loads(run_options(limits))


def run_cells(*cells: str, cell: bool = True) -> list[dict[str, Any]]:
    """Run ``cells`` one after another in one isolate, as jobs of a session; their outcomes."""

    async def scenario() -> list[dict[str, Any]]:
        limits = SandboxLimits()
        isolate = await Isolate.prepare(limits)
        outcomes: list[dict[str, Any]] = []
        try:
            for code in cells:
                request = {"id": 1, "code": code, "input": "", "timeoutMs": 5000, "cell": cell}
                outcomes.append(dict(await execute(isolate, request, limits)))
                # A run takes away the entry point the worker starts a job through; a warm-up run puts it back.
                assert await isolate.warm_up()
        finally:
            isolate.close()
        return outcomes

    async def bounded() -> list[dict[str, Any]]:
        return await asyncio.wait_for(scenario(), WAIT_S)

    return asyncio.run(bounded())


def results(outcomes: list[dict[str, Any]]) -> list[str | None]:
    assert [outcome["error"] for outcome in outcomes] == [None] * len(outcomes)
    return [outcome["resultText"] for outcome in outcomes]


def test_declarations_of_one_cell_are_there_for_the_next_which_may_declare_them_again() -> None:
    outcomes = run_cells(
        "const x = 1; function f() { return x + 1 }; class C {}",
        "const x = 10; f() + new C().constructor.name.length",
    )
    assert results(outcomes) == ["undefined", "12"]


def test_top_level_await_cells_keep_their_declarations() -> None:
    outcomes = run_cells("const r = await Promise.resolve(3)", "r * 2", "const t = await r, u = t * 2; u")
    assert results(outcomes) == ["undefined", "6", "6"]


def test_the_same_cell_runs_twice() -> None:
    code = (
        "const x = [1]; let y = x.length; var z; class K {}; function g() { return y }; g() + new K().constructor.name"
    )
    assert results(run_cells(code, code)) == ["'1K'", "'1K'"]


def test_top_level_return_and_names_beyond_ascii_work_in_cells() -> None:
    outcomes = run_cells("const café = 2, \U0001d465 = 3; if (café) return café * \U0001d465; 0", "café + \U0001d465")
    assert results(outcomes) == ["6", "5"]


def test_a_let_can_be_declared_again_as_a_const_in_a_later_cell() -> None:
    assert results(run_cells("let y = 1; y", "const y = y + 1; y", "y")) == ["1", "2", "2"]


def test_strict_mode_cells_keep_their_functions_and_variables() -> None:
    outcomes = run_cells("'use strict'; const s = 2; h(); function h() { return s * 3 }", "'use strict'; h()")
    assert results(outcomes) == ["undefined", "6"]


def test_a_function_of_an_async_cell_is_hoisted_within_the_cell_and_global_after_it() -> None:
    outcomes = run_cells("await 0; const k = f(); function f() { return 1 }; k", "f() + k")
    assert results(outcomes) == ["1", "2"]


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("const z = 3", id="script"),
        pytest.param("await 0; const z = 3", id="async"),
        pytest.param("1; function f() {}", id="function"),
        pytest.param("class A {}", id="class"),
    ],
)
def test_a_cell_that_ends_with_a_declaration_gives_undefined(code: str) -> None:
    assert results(run_cells(code)) == ["undefined"]


def test_imports_typescript_and_object_literal_results_work_in_cells() -> None:
    outcomes = run_cells(
        "import path from 'node:path'",
        "path.join('a', 'b')",
        "const n: number = 5;\ninterface P { a: number }\n{ n, twice: n * 2 }",
        "n",
    )
    assert results(outcomes) == ["undefined", "'a/b'", "{ n: 5, twice: 10 }", "5"]


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("const a = 1, b = null.c", id="script"),
        pytest.param("await 0;\nconst {a} = {}, b = a.c", id="async"),
        pytest.param("let x\nfunction f() { return x.y }\nf()", id="function"),
        pytest.param("class K {\n  m() { return undefined.z }\n}\nnew K().m()", id="class-body"),
    ],
)
def test_errors_point_where_they_point_without_the_rewrite(code: str) -> None:
    [as_cell_outcome] = run_cells(code)
    [plain] = run_cells(code, cell=False)
    assert as_cell_outcome["error"] is not None
    assert as_cell_outcome["error"] == plain["error"]


def test_a_name_declared_twice_in_one_cell_is_still_v8s_syntax_error() -> None:
    [outcome] = run_cells("let a = 1; let a = 2")
    assert outcome["error"]["name"] == "SyntaxError"
    assert "already been declared" in outcome["error"]["message"]


def test_without_the_cell_flag_declarations_do_not_outlive_the_call() -> None:
    assert results(run_cells("const x = 1; x", "typeof x", cell=False)) == ["1", "'undefined'"]
