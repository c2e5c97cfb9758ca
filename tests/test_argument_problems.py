"""One answer names every problem of a call's arguments: the schema's and each tool's own, field by field."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("tool", "arguments", "named"),
    [
        pytest.param("add", {"a": "x", "b": [1]}, ["argument 'b'", "a = 'x'"], id="add-schema-and-own"),
        pytest.param("add", {"a": "x", "b": "1e999999"}, ["a = 'x'", "b has more than"], id="add-both-own"),
        pytest.param("add", {"a": True, "c": 1}, ["argument 'a'", "'c'", "'b'"], id="add-schema-only"),
        pytest.param(
            "divide",
            {"a": "q", "b": 0, "precision": 2, "decimal_places": 1},
            ["a = 'q'", "Division by zero", "both given"],
            id="divide-own",
        ),
        pytest.param(
            "divide", {"a": "1", "b": "z", "rounding": "sideways"}, ["argument 'rounding'", "b = 'z'"], id="divide"
        ),
        pytest.param(
            "date_diff",
            {"start": "2024-13-01", "end": 5, "timezone": "Mars/Base"},
            ["argument 'end'", "timezone = 'Mars/Base'", "start = '2024-13-01'"],
            id="date-diff",
        ),
        pytest.param(
            "date_diff",
            {"start": "2024-01-01", "end": "yesterday", "holidays": {"country": "Atlantis"}},
            ["end = 'yesterday'", "holidays.country"],
            id="date-diff-holidays",
        ),
        pytest.param(
            "execute_js", {"code": 5, "timeout_ms": "x", "extra": 1}, ["'code'", "'timeout_ms'", "'extra'"], id="js"
        ),
    ],
)
async def test_one_answer_names_every_field_that_is_wrong(
    client: Client, tool: str, arguments: dict[str, Any], named: list[str]
) -> None:
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    for fragment in named:
        assert fragment in text, (fragment, text)
