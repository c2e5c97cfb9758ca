"""Code nested thousands of levels deep, in any shape, gets an answer: it runs, or V8 reports its own limit; the
worker never crashes on it (a TypeScript conditional type 5,500 levels deep used to end it with a Python
RecursionError, as did deep destructuring in a session cell and deep template literal types).

Each case runs as a plain call and as a session cell (whose rewrite reads the declarations' patterns).
"""

from __future__ import annotations

import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings
from .conftest import CALL_WAIT_S, Sandbox

pytestmark = pytest.mark.anyio

DEEP = 5500
"""The depth of the attack (the code stays under the 100,000-byte limit)."""
STACK = "Maximum call stack size exceeded"
"""V8's own answer to nesting deeper than its parser goes: a RangeError the code can read, not a crash."""
CONDITIONAL = "type T = " + "A extends B ? " * DEEP + "C" + " : D" * DEEP

SHAPES = [
    pytest.param(CONDITIONAL, None, None, id="ts-conditional-type-the-attack"),
    pytest.param(CONDITIONAL + "\nconst x: number = 41\nx + 1", None, 42, id="ts-conditional-type-then-code"),
    pytest.param("type T = " + "A extends B ? C : " * DEEP + "D\n1", None, 1, id="ts-conditional-in-false-branches"),
    pytest.param("type T = " + "keyof " * DEEP + "X\n1", None, 1, id="ts-type-operators"),
    pytest.param("type F = " + "() => " * DEEP + "X\n1", None, 1, id="ts-function-types"),
    pytest.param("let f: " + "(a: number) => " * DEEP + "X = null as any\n1", None, 1, id="ts-function-annotation"),
    pytest.param("type T = " + "`${" * 3000 + "X" + "}`" * 3000 + "\n1", None, 1, id="ts-template-literal-type"),
    pytest.param("let a: " + "A<" * DEEP + "X" + ">" * DEEP + " = 1\na", None, 1, id="ts-generics"),
    pytest.param("let a: " + "{a: " * 3000 + "X" + "}" * 3000 + " = 1\na", None, 1, id="ts-object-types"),
    pytest.param("type T = " + "(A | " * 3000 + "B" + ")" * 3000 + "\n1", None, 1, id="ts-parenthesised-unions"),
    pytest.param("let a: number[] = " + "[" * 3000 + "1" + "]" * 3000 + "\na.flat(Infinity)", None, [1],
                 id="ts-arrays"),
    pytest.param("let a = " + "[" * 3000 + "1" + "]" * 3000 + "; a.flat(Infinity)", None, [1], id="js-arrays"),
    pytest.param("let a = " + "[" * 30000 + "1" + "]" * 30000 + "; 1", "runtime", STACK, id="js-arrays-deeper"),
    pytest.param("(" * 3000 + "1" + ")" * 3000, "runtime", STACK, id="js-parentheses"),
    pytest.param("`${" * 3000 + "1" + "}`" * 3000, "runtime", STACK, id="js-template-literals"),
    pytest.param("let s: string = " + "`${" * 3000 + "1" + "}`" * 3000 + "\ns", "runtime", STACK,
                 id="ts-template-literals"),
    pytest.param("const " + "[" * 3000 + "a" + "]" * 3000 + " = " + "[" * 3000 + "7" + "]" * 3000 + "; a", None, 7,
                 id="js-destructuring"),
    pytest.param("const " + "{a: " * 500 + "b" + "}" * 500 + " = " + "{a: " * 500 + "7" + "}" * 500 + "; b",
                 None, 7, id="js-object-destructuring"),
    pytest.param("let a = " + "<A>" * 3000 + "</A>" * 3000, "syntax", "Unexpected token '<'", id="jsx-like"),
    pytest.param("f" + "<A<" * 3000 + "X" + ">>" * 3000 + "()", "syntax", "Unexpected token",
                 id="ts-generic-call-arguments"),
]  # fmt: skip


def assert_answered(call_kind: str | None, message: str, result: object, kind: str | None, expected: object) -> None:
    assert call_kind == kind, message
    if kind is None:
        assert result == expected
    else:
        assert isinstance(expected, str) and expected in message


@pytest.mark.parametrize(("code", "kind", "expected"), SHAPES)
async def test_deeply_nested_code_is_answered_never_crashes_the_worker(
    sandbox: Sandbox, code: str, kind: str | None, expected: object
) -> None:
    call = await sandbox.run(code, timeout_ms=20_000)
    message = call.structured["error"]["message"] if call.kind else ""
    assert_answered(call.kind, message, call.structured.get("result"), kind, expected)


@pytest.mark.parametrize(("code", "kind", "expected"), SHAPES)
async def test_deeply_nested_code_is_answered_in_a_session_cell_too(
    sandbox: Sandbox, code: str, kind: str | None, expected: object
) -> None:
    call = await sandbox.run(code, timeout_ms=20_000, session="deep", reset=True)
    message = call.structured["error"]["message"] if call.kind else ""
    assert_answered(call.kind, message, call.structured.get("result"), kind, expected)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_deep_conditional_type_runs_on_both_revisions(mode: str) -> None:
    import anyio

    app = App.create(make_settings(workers=1))
    async with Client(build_server(app=app), mode=mode) as client:  # type: ignore[arg-type]
        with anyio.fail_after(CALL_WAIT_S):
            result = await client.call_tool("execute_js", {"code": CONDITIONAL + "\n'ran'", "timeout_ms": 20_000})
    assert result.structured_content is not None
    assert result.structured_content["error"] is None and result.structured_content["result"] == "ran"
