"""Arguments found valid at a glance are valid by the schema, and every answer, a glance or not, is the schema's own:
the same problems, worded the same."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox_server import Settings
from sandbox_server.tools import deterministic_tools
from sandbox_server.tools.execute_js import input_schema
from sandbox_server.validation import ArgumentValidator

# Small limits, so that generated values land on both sides of every bound.
SMALL = Settings(workers=1, max_code_bytes=6, default_timeout_ms=5, max_timeout_ms=10, max_files=2)
SCHEMAS: dict[str, dict[str, Any]] = {
    "execute_js": input_schema(SMALL),
    "execute_js+files": input_schema(SMALL, files=True),
    "execute_js_with_tools": input_schema(SMALL, brief=True),
    **{spec.name: spec.input_schema for spec in deterministic_tools()},
    "every-quick-keyword": {
        "type": "object",
        "additionalProperties": False,
        "required": ["s"],
        "properties": {
            "s": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "a"},
            "i": {"type": "integer", "minimum": -1, "maximum": 5},
            "b": {"type": "boolean", "title": "b"},
            "any": {"description": "anything"},
            "n": {"type": "number", "minimum": -1.5, "maximum": 5},
            "ns": {"type": ["number", "string"], "maxLength": 3, "minimum": 0},
        },
    },
}
VALIDATORS = {name: ArgumentValidator(schema) for name, schema in SCHEMAS.items()}

values = st.one_of(
    st.text(max_size=8),
    st.text(alphabet="ab", max_size=5),
    st.text(alphabet="ab_.-9 \n\ud800", max_size=66),
    st.integers(min_value=-3, max_value=12),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(),
    st.lists(st.one_of(st.text(max_size=3), st.integers()), max_size=4),
    st.dictionaries(st.sampled_from(["path", "as", "x"]), st.text(max_size=3), max_size=2),
)


def near(schema: Any) -> st.SearchStrategy[Any]:
    """Any value, or one at the edge of a bound of ``schema``."""
    edges: list[Any] = []
    if isinstance(schema, dict):
        for name in ("minimum", "maximum"):
            if isinstance(schema.get(name), int):
                edges += [schema[name] - 1, schema[name], schema[name] + 1]
        for name in ("minLength", "maxLength"):
            if isinstance(schema.get(name), int):
                edges += ["a" * length for length in range(max(0, schema[name] - 1), schema[name] + 2)]
    return st.one_of(values, st.sampled_from(edges)) if edges else values


def arguments_for(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    properties = schema.get("properties", {})
    optional = {name: near(subschema) for name, subschema in properties.items()} | {"extra": values}
    return st.one_of(st.fixed_dictionaries({}, optional=optional), values)


@settings(max_examples=400, deadline=None)
@given(st.data())
@pytest.mark.parametrize("tool", list(SCHEMAS))
def test_the_answer_is_the_schemas_whether_or_not_the_arguments_are_judged_at_a_glance(tool: str, data: Any) -> None:
    validator = VALIDATORS[tool]
    arguments = data.draw(arguments_for(SCHEMAS[tool]))
    by_schema = validator._schema_problems(arguments)
    assert validator.problems(arguments) == by_schema
    if validator._valid_at_a_glance(arguments):
        assert by_schema == []


_ABSENT = object()
_OTHER_TYPES = {"string": [1, "a b"], "integer": [True, 1.0, "1"], "number": [True, "1"], "boolean": [1, None]}


def candidates(schema: Any) -> list[Any]:
    """Values worth trying for one property: absent, at the edges of its bounds, valid, and of the wrong type."""
    found = [_ABSENT, [1.5]]
    if isinstance(schema, dict):
        kind = schema.get("type")
        found += _OTHER_TYPES.get(kind, []) if isinstance(kind, str) else []
        for name in ("minimum", "maximum"):
            if isinstance(schema.get(name), int):
                found += [schema[name] - 1, schema[name], schema[name] + 1]
        for name in ("minLength", "maxLength"):
            if isinstance(schema.get(name), int):
                found += ["a" * length for length in range(max(0, schema[name] - 1), schema[name] + 2)]
        found += (
            {"string": ["a"], "integer": [0], "number": [0.5], "boolean": [True]}.get(kind, [])
            if isinstance(kind, str)
            else []
        )
        found += [True, "abcd", "ab", -1, 2.5] if isinstance(kind, list) else []
    return found


@pytest.mark.parametrize("tool", ["execute_js", "every-quick-keyword"])
def test_at_every_edge_of_every_bound_the_answer_is_the_schemas(tool: str) -> None:
    validator = VALIDATORS[tool]
    properties = {**SCHEMAS[tool]["properties"], "extra": {}}
    glanced = 0
    for combination in itertools.product(*(candidates(schema) for schema in properties.values())):
        arguments = {name: value for name, value in zip(properties, combination, strict=True) if value is not _ABSENT}
        assert validator.problems(arguments) == validator._schema_problems(arguments), arguments
        glanced += validator._valid_at_a_glance(arguments)
    assert glanced > 0


@pytest.mark.parametrize(
    "arguments",
    [{"a": "1", "b": "2"}, {"a": 17, "b": -2.5}, {"a": "123456789012345678901234567890", "b": -30}],
)
def test_the_usual_calls_of_add_are_judged_valid_at_a_glance(arguments: dict[str, Any]) -> None:
    validator = VALIDATORS["add"]
    assert validator._valid_at_a_glance(arguments)
    assert validator._schema_problems(arguments) == []


@pytest.mark.parametrize(
    "arguments",
    [
        {"code": "1+1"},
        {"code": "x", "timeout_ms": 10, "session": "a.b-c_9", "reset": False},
        {"code": "input", "input": {"rows": [1.5, None, "x"]}},
        {"code": "123456", "timeout_ms": 100_000},
    ],
)
def test_the_usual_calls_of_execute_js_are_judged_valid_at_a_glance(arguments: dict[str, Any]) -> None:
    validator = VALIDATORS["execute_js"]
    assert validator._valid_at_a_glance(arguments)
    assert validator._schema_problems(arguments) == []


@pytest.mark.parametrize(
    "arguments",
    [
        {"code": ""},
        {"code": "1234567"},
        {"code": 1},
        {"code": "1", "timeout_ms": 0},
        {"code": "1", "timeout_ms": True},
        {"code": "1", "timeout_ms": 5.0},
        {"code": "1", "session": "a b"},
        {"code": "1", "session": "a" * 401},
        {"code": "1", "reset": 1},
        {"code": "1", "files": ["a.csv"]},
        {"code": "1", "other": 1},
        {"timeout_ms": 5},
        [],
    ],
)
def test_anything_else_goes_to_the_schema(arguments: Any) -> None:
    assert not VALIDATORS["execute_js"]._valid_at_a_glance(arguments)
