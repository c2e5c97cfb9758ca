"""Fuzzing every tool's arguments: whatever JSON arrives, the answer is a valid CallToolResult.

An argument error or a failed computation is an ``isError`` result the model can read; a success carries
structured content that validates against the tool's output schema. Never an internal error, never a
JSON-RPC error. Arguments mix values of the expected shape (to get past validation into the tools) with
arbitrary JSON: wrong types, huge numbers, NaN, odd strings, extra keys.

Hypothesis runs in a worker thread and makes each call on the event loop that owns the client.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
import anyio.from_thread
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mcp import Client

from sandbox_server import build_server

from ..conftest import make_settings

pytestmark = pytest.mark.anyio

EXAMPLES = 800

odd_strings = st.sampled_from(
    [
        "",
        " ",
        "0",
        "-0",
        "+",
        "1e400",
        "-1e-400",
        "NaN",
        "Infinity",
        "0x1F",
        "1_000",
        "١٢٣",  # Arabic-Indic digits
        "\uff11\uff12",  # full-width digits
        "\x00",
        "\u202e",
        "😀",
        "2024-02-30",
        "2024-13-01",
        "0000-01-01",
        "9999-12-31T23:59:59.999999999Z",
        "2024-03-10T02:30:00",
        "2024-01-01T24:00:00",
        "2024-06-30T23:59:60Z",
        "2024-01-01T00:00:00+25:00",
        "Europe/Paris",
        "America/New_York",
        "Etc/GMT+14",
        "../../etc/passwd",
        "UTC\n",
        "9" * 1_101,
        "1" * 10_002,
    ]
)
text = st.one_of(odd_strings, st.text(max_size=40))
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
digits = st.integers(min_value=-(10**60), max_value=10**60).map(str)
decimals = st.builds(
    lambda mantissa, exponent: f"{mantissa}e{exponent}",
    st.decimals(allow_nan=False, allow_infinity=False, places=6),
    st.integers(min_value=-1_200, max_value=1_200),
)
dates = st.dates().map(lambda day: day.isoformat())
datetimes = st.datetimes(timezones=st.none() | st.timezones()).map(lambda moment: moment.isoformat())
zones = st.sampled_from(["UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu", "Australia/Lord_Howe", "Mars"])
snippets = st.sampled_from(
    [
        "1 + 1",
        "input",
        "JSON.stringify(input)",
        "typeof input === 'object' ? Object.keys(input ?? {}).length : input",
        "throw new Error('boom')",
        "await Promise.reject(new TypeError('nope'))",
        "new Date(8.64e15 + 1)",
        "2n ** 4000n",
        "'\\ud800'",
        "Symbol('s')",
        "[function f() {}, undefined, null, -0, NaN]",
        "({toJSON() { throw new Error('no') }})",
        "let a = []; a[1e6] = 1; a",
        "console.log('x'.repeat(100000))",
        "",
        "}",
    ]
)

ARGUMENTS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "add": {"a": st.one_of(st.integers(), digits), "b": st.one_of(st.integers(), digits)},
    "divide": {
        "a": st.one_of(st.floats(), st.integers(), decimals),
        "b": st.one_of(st.floats(), st.integers(), decimals),
        "precision": st.integers(min_value=1, max_value=1_000),
    },
    "date_diff": {"start": st.one_of(dates, datetimes), "end": st.one_of(dates, datetimes), "timezone": zones},
    "execute_js": {
        "code": st.one_of(snippets, snippets, st.text(min_size=1, max_size=30)),
        "timeout_ms": st.integers(min_value=1, max_value=2_000),
        "input": json_values,
    },
}


def mostly(usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``usual`` four times in five, else ``other`` (``one_of`` would pick between them evenly)."""
    return st.integers(min_value=0, max_value=4).flatmap(lambda pick: usual if pick else other)


REQUIRED = {"add": {"a", "b"}, "divide": {"a", "b"}, "date_diff": {"start", "end"}, "execute_js": {"code"}}


def arguments_for(tool: str) -> st.SearchStrategy[Any]:
    """Argument objects for ``tool``.

    Mostly the required arguments with values of their type (or now and then any JSON), so that most calls
    get past validation into the tool; otherwise any subset of the arguments with any values plus unknown
    keys. Arguments that are not an object never reach a tool: the client refuses to send them, and over the
    wire the server answers INVALID_PARAMS (see test_protocol_misuse).
    """
    typed = ARGUMENTS[tool]
    mostly_typed = {name: mostly(strategy, json_values) for name, strategy in typed.items()}
    plausible = st.fixed_dictionaries(
        {name: mostly_typed[name] for name in REQUIRED[tool]},
        optional={name: mostly_typed[name] for name in typed.keys() - REQUIRED[tool]},
    )
    anything = st.builds(
        lambda known, extra: {**extra, **known},
        st.fixed_dictionaries(
            {}, optional={name: st.one_of(strategy, json_values) for name, strategy in typed.items()}
        ),
        st.dictionaries(st.text(max_size=8), json_values, max_size=2),
    )
    return mostly(plausible, anything)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def fuzz_client() -> AsyncIterator[Client]:
    # A short maximum timeout bounds any snippet that might loop.
    async with Client(
        build_server(make_settings(default_timeout_ms=2_000, max_timeout_ms=2_000)), mode="legacy"
    ) as connected:
        yield connected


async def fuzz(client: Client, tool: str, check: Callable[[Any, Any], None]) -> None:
    listed = await client.list_tools()
    (spec,) = [listed_tool for listed_tool in listed.tools if listed_tool.name == tool]
    assert spec.output_schema is not None
    output = Draft202012Validator(spec.output_schema)

    def call(arguments: Any) -> Any:
        # The SDK's client raises on a JSON-RPC error and on structured content that fails the output schema.
        return anyio.from_thread.run(client.call_tool, tool, arguments)

    @settings(deadline=None, max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow])
    @given(arguments=arguments_for(tool))
    def run(arguments: Any) -> None:
        result = call(arguments)
        assert result.content, result
        text_block = result.content[0].text
        if result.is_error:
            assert text_block.startswith("Error:"), result
            assert "internal error" not in text_block, (arguments, result)
        else:
            assert result.structured_content is not None, result
            problems = [error.message for error in output.iter_errors(result.structured_content)]
            assert not problems, (arguments, problems)
            assert not _has_non_finite(result.structured_content), result
        check(arguments, result)

    await anyio.to_thread.run_sync(run)


def _has_non_finite(value: Any) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_has_non_finite(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_non_finite(item) for item in value)
    return False


def _nothing_more(arguments: Any, result: Any) -> None:
    """No check beyond the shared ones."""


def _execute_js_reports_its_error_kind(arguments: Any, result: Any) -> None:
    structured = result.structured_content
    assert structured is not None, result
    assert structured["ok"] is (not result.is_error)
    if result.is_error:
        assert structured["error"]["kind"] in {"arguments", "syntax", "runtime", "timeout", "memory"}, structured


@pytest.mark.parametrize("tool", ["add", "divide", "date_diff"])
async def test_any_arguments_to_a_deterministic_tool_get_a_valid_result(fuzz_client: Client, tool: str) -> None:
    with anyio.fail_after(120):
        await fuzz(fuzz_client, tool, _nothing_more)


async def test_any_arguments_to_execute_js_get_a_valid_result_with_an_error_kind(fuzz_client: Client) -> None:
    with anyio.fail_after(120):
        await fuzz(fuzz_client, "execute_js", _execute_js_reports_its_error_kind)
