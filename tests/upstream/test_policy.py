"""A listing that contradicts itself is read at its strictest: a name listed twice keeps the entry that may do more."""

from __future__ import annotations

import mcp_types as types
import pytest

from sandbox_server.upstream.policy import strictest

READ_ONLY = types.ToolAnnotations(read_only_hint=True)
WRITES = types.ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
DESTRUCTIVE = types.ToolAnnotations(read_only_hint=False, destructive_hint=True)


def tool(name: str, annotations: types.ToolAnnotations | None, description: str = "") -> types.Tool:
    return types.Tool(name=name, description=description, input_schema={"type": "object"}, annotations=annotations)


@pytest.mark.parametrize(
    ("first", "second", "kept"),
    [
        pytest.param(READ_ONLY, DESTRUCTIVE, "second", id="read-only-then-destructive"),
        pytest.param(DESTRUCTIVE, READ_ONLY, "first", id="destructive-then-read-only"),
        pytest.param(READ_ONLY, None, "second", id="read-only-then-unannotated"),
        pytest.param(WRITES, DESTRUCTIVE, "second", id="non-destructive-then-destructive"),
        pytest.param(READ_ONLY, WRITES, "second", id="read-only-then-writes"),
        pytest.param(DESTRUCTIVE, DESTRUCTIVE, "first", id="equal-claims-keep-the-first"),
    ],
)
def test_a_name_listed_twice_keeps_the_entry_that_may_do_more(
    first: types.ToolAnnotations | None, second: types.ToolAnnotations | None, kept: str
) -> None:
    (chosen,) = strictest([tool("wipe", first, "first"), tool("wipe", second, "second")])
    assert chosen.description == kept


def test_names_keep_the_order_they_first_appear_in_and_single_entries_are_untouched() -> None:
    tools = [tool("a", READ_ONLY), tool("b", READ_ONLY, "b1"), tool("c", WRITES), tool("b", DESTRUCTIVE, "b2")]
    assert [(t.name, t.description) for t in strictest(tools)] == [("a", ""), ("b", "b2"), ("c", "")]
