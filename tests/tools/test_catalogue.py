"""The deterministic tools as published: names, annotations, icons and schemas a model can rely on."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sandbox_server.registry import PURE_COMPUTATION, ToolSpec
from sandbox_server.tools import ADD, DATE_DIFF, DIVIDE, deterministic_tools
from sandbox_server.tools.decimals import MAX_EXPONENT, MAX_INTEGER_DIGITS
from sandbox_server.tools.public_holidays import MAX_HOLIDAY_YEARS

SPECS = [pytest.param(spec, id=spec.name) for spec in deterministic_tools()]


def test_the_deterministic_tools_are_add_divide_and_date_diff_in_that_order() -> None:
    assert deterministic_tools() == [ADD, DIVIDE, DATE_DIFF]
    assert [spec.name for spec in deterministic_tools()] == ["add", "divide", "date_diff"]


@pytest.mark.parametrize("spec", SPECS)
def test_each_tool_is_published_as_pure_computation_with_its_icons(spec: ToolSpec) -> None:
    tool = spec.to_mcp()
    assert spec.annotations == PURE_COMPUTATION
    assert tool.annotations is not None
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.open_world_hint is False
    assert spec.icon == spec.name
    assert tool.icons is not None
    assert len(tool.icons) == 2


@pytest.mark.parametrize("spec", SPECS)
def test_each_input_schema_is_a_closed_2020_12_object_schema_with_described_properties(spec: ToolSpec) -> None:
    schema: dict[str, Any] = dict(spec.input_schema)
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert schema["additionalProperties"] is False
    assert "$schema" not in schema
    assert set(schema["required"]) <= set(schema["properties"])
    for name, prop in schema["properties"].items():
        assert prop.get("description"), f"{spec.name}.{name} has no description"


@pytest.mark.parametrize("spec", SPECS)
def test_each_output_schema_is_an_object_schema_whose_fields_are_all_described(spec: ToolSpec) -> None:
    schema: dict[str, Any] = dict(spec.output_schema)
    Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object"
    assert set(schema["required"]) == set(schema["properties"])
    for name, prop in schema["properties"].items():
        assert prop.get("description"), f"{spec.name} output field {name} has no description"


@pytest.mark.parametrize("spec", SPECS)
def test_each_description_gives_an_example_call_and_result(spec: ToolSpec) -> None:
    assert "Example: {" in spec.description
    assert "gives Result: " in spec.description
    assert spec.title and spec.title != spec.name


@pytest.mark.parametrize("spec", SPECS)
def test_each_description_says_when_to_use_the_tool(spec: ToolSpec) -> None:
    first_paragraph = spec.description.split("\n\n")[0]
    assert "Use it " in first_paragraph


@pytest.mark.parametrize(
    ("spec", "limits"),
    [
        pytest.param(ADD, [f"{MAX_INTEGER_DIGITS} digits"], id="add"),
        pytest.param(DIVIDE, [f"1e-{MAX_EXPONENT} to 1e+{MAX_EXPONENT}", "b is not zero", "never both"], id="divide"),
        pytest.param(
            DATE_DIFF,
            ["years 1 to 9999", f"spans under {MAX_HOLIDAY_YEARS} years", "skipped by DST is an error"],
            id="date_diff",
        ),
    ],
)
def test_each_description_states_the_limits_a_model_would_otherwise_discover_by_failing(
    spec: ToolSpec, limits: list[str]
) -> None:
    for limit in limits:
        assert limit in spec.description


def test_each_exact_tool_description_states_its_limits() -> None:
    from sandbox_server.tools import decimals as arithmetic
    from sandbox_server.tools.add import ADD
    from sandbox_server.tools.divide import DIVIDE

    assert f"{arithmetic.MAX_INTEGER_DIGITS} digits" in ADD.description
    for limit in (arithmetic.MAX_DECIMAL_CHARS, arithmetic.MAX_EXPONENT, arithmetic.MAX_PRECISION):
        assert str(limit) in DIVIDE.description, limit
