"""The quick rendering of a primitive result with nothing else to say gives, byte for byte, what the full rendering
gives: over the outcomes of the corpus and of primitive values of every kind, as the workers report them, and over
generated outcomes."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox_server import Settings
from sandbox_server.results import ToolResult
from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.tools.rendering import full_result, plain_result, render_outcome
from tests.corpus.test_corpus import CORPUS

pytestmark = pytest.mark.anyio

SETTINGS = Settings(workers=2)
TIMEOUT_MS = 5_000
WAIT_S = 60

PRIMITIVES = [
    # numbers
    "1+1", "-0", "0", "NaN", "Infinity", "-Infinity", "0.1 + 0.2", "1e21", "1e-7", "2 ** 53 + 1", "Number.MAX_VALUE",
    "5e-324", "-1.5", "0x10", "1 / 3", "(123.456).toFixed(1) * 1",
    # big integers
    "10n", "-5n", "0n", "2n ** 200n", "BigInt(Number.MAX_SAFE_INTEGER) * 3n", "2n ** 20000n",
    # strings
    "'a'", "''", "'\"quoted\"'", "\"it's\"", "'line1\\nline2'", "'tab\\there'", "'caf\u00e9 \u2713 \U0001f600'",
    "'\\u2028'", "'\\r\\n'", "'`back`'", "'```'", "'a`'", "'`a'", "' lead'", "'trail '", "'\\x0b'", "'\\u0085'",
    "'\\ud800'", "'\\udc00x'", "`template ${1 + 1}`", "'x'.repeat(20000)", "'\\n'.repeat(3)", "'a\\\\b'",
    "'\\u0000'", "String(Symbol('s'))", "JSON.stringify({a: [1, 'b']})",
    # booleans, null, undefined
    "true", "false", "1 < 2", "null", "undefined", "void 0", "let x = 1", "function f() {}",
    # symbols
    "Symbol('x')", "Symbol()", "Symbol.iterator", "Symbol.for('k')", "Symbol('a\\nb')", "Symbol('`')",
    # how the code produced it
    "await 1", "await Promise.resolve('s')", "return 5", "const n: number = 4; n * 2", "{ 1 }",
    # not plain: output, errors, objects
    "console.log(1); 2", "console.error('e'); 'x'", "[1, 2]", "({a: 1})", "new Date(0)", "throw new Error('x')",
    "x.y", "let", "new Map([[1, 2]])", "Promise.reject(new TypeError('no'))", "(() => {})",
]  # fmt: skip


@pytest.fixture(scope="module")
async def outcomes() -> AsyncIterator[list[tuple[str, dict[str, Any]]]]:
    """Each snippet of the corpus and of PRIMITIVES with its outcome, as the handler gets it from the pool."""
    jobs = [(snippet.code, json.dumps(snippet.input) if snippet.has_input else None) for snippet in CORPUS]
    jobs += [(code, None) for code in PRIMITIVES]
    found: list[tuple[str, dict[str, Any]]] = []
    async with WorkerPool(2) as pool:

        async def run(code: str, input_json: str | None) -> None:
            outcome = dict(await pool.run(Job(code=code, input_json=input_json, timeout_ms=TIMEOUT_MS)))
            outcome.pop("displays", None)
            found.append((code, outcome))

        with anyio.fail_after(WAIT_S):
            async with anyio.create_task_group() as group:
                for code, input_json in jobs:
                    group.start_soon(run, code, input_json)
        yield found


def wire(result: ToolResult) -> str:
    """The result as the transport writes it."""
    return result.to_mcp().model_dump_json(by_alias=True, exclude_none=True)


def assert_same(outcome: dict[str, Any], code: str = "") -> bool:
    """The rendered result is the full rendering's, and the quick one, when it applies, too; whether it applied."""
    full = full_result(dict(outcome), SETTINGS, TIMEOUT_MS, code)
    assert render_outcome(dict(outcome), SETTINGS, TIMEOUT_MS, code) == full
    plain = plain_result(dict(outcome), TIMEOUT_MS)
    if plain is None:
        return False
    assert plain == full
    assert json.dumps(plain.structured) == json.dumps(full.structured)
    assert wire(plain) == wire(full)
    return True


async def test_the_quick_rendering_of_real_outcomes_is_the_full_one(outcomes: list[tuple[str, dict[str, Any]]]) -> None:
    assert len(outcomes) == len(CORPUS) + len(PRIMITIVES)
    plain = {code for code, outcome in outcomes if assert_same(outcome, code)}
    # Every kind of primitive takes the quick way, and nothing with more to say does.
    kinds = {outcome["resultType"] for code, outcome in outcomes if code in plain}
    assert kinds == {"number", "string", "boolean", "bigint", "undefined", "null", "symbol"}
    assert len(plain & set(PRIMITIVES)) >= 50
    assert not plain & {"console.log(1); 2", "[1, 2]", "throw new Error('x')", "'x'.repeat(20000)"}
    assert len(plain - set(PRIMITIVES)) >= 20


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
texts = st.one_of(
    st.text(max_size=12),
    st.text(alphabet="a`\n\r\u2028 ", max_size=6),
    st.sampled_from(["", "undefined", "`", "```x```", "a\u0085b"]),
)
errors = st.none() | st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["syntax", "runtime", "timeout", "memory", "crashed"]),
        "name": st.none() | st.text(max_size=6),
        "message": st.none() | texts,
        "line": st.none() | st.integers(1, 9),
        "column": st.none() | st.integers(1, 9),
        "stack": st.none() | texts,
    }
)
# Outcomes a primitive result with nothing else gives, and each field of the outcome of any kind.
PLAIN_FIELDS = {
    "ok": st.just(True),
    "resultText": texts,
    "resultType": st.sampled_from(["number", "string", "boolean", "bigint", "undefined", "null", "symbol"]),
    "stdout": st.just(""),
    "stderr": st.just(""),
    "truncated": st.just(False),
    "omittedBytes": st.integers(0, 9),
    "error": st.none(),
    "syntaxMode": st.sampled_from([None, "script", "async"]),
    "async": st.booleans(),
    "durationMs": st.floats(0, 1e4),
}
plain_outcomes = st.fixed_dictionaries(
    PLAIN_FIELDS,
    optional={"result": json_values | texts, "resultShortened": st.just(False), "isolateRuns": st.integers(1, 3)},
)
any_field = {
    "ok": st.booleans() | st.just(1) | st.none(),
    "resultText": st.none() | texts,
    "resultType": st.none() | st.sampled_from(["number", "string", "bigint", "symbol", "object", "function"]),
    "stdout": texts,
    "stderr": texts,
    "truncated": st.booleans() | st.just(0),
    "error": errors,
    "result": json_values | texts,
    "resultShortened": st.booleans(),
    "async": st.just(1),
}
changes = st.lists(
    st.one_of(
        st.sampled_from([*PLAIN_FIELDS, "result"]).map(lambda key: (key, None)),  # left out
        st.sampled_from(list(any_field)).flatmap(lambda key: any_field[key].map(lambda value: (key, [value]))),
    ),
    max_size=2,
)


@settings(max_examples=3_000, deadline=None)
@given(plain_outcomes, changes)
def test_the_quick_rendering_of_generated_outcomes_is_the_full_one(
    outcome: dict[str, Any], changed: list[tuple[str, list[Any] | None]]
) -> None:
    for key, value in changed:
        if value is None:
            outcome.pop(key, None)
        else:
            outcome[key] = value[0]
    assert_same(outcome)
