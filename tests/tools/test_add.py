"""``add``: exact sums of integers and decimals of any size, given as JSON numbers or decimal strings."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sandbox_server.errors import ToolError
from sandbox_server.tools.add import ADD, MAX_ADD_CHARS, MAX_INTEGER_DIGITS, add

from .calling import Call

HUNDRED_DIGITS = "1234567890" * 10
SCHEMA = Draft202012Validator(ADD.input_schema)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param(7, 8, "15", id="small"),
        pytest.param(-7, 3, "-4", id="negative-result"),
        pytest.param(0, 0, "0", id="zeros"),
        pytest.param("-0", "+0", "0", id="signed-zeros-give-plain-zero"),
        pytest.param("007", "-3", "4", id="leading-zeros"),
        pytest.param(2**53, 1, "9007199254740993", id="just-past-float-precision"),
        pytest.param("-123456789012345678901234567890", -30, "-123456789012345678901234567920", id="string-and-int"),
        pytest.param(HUNDRED_DIGITS, HUNDRED_DIGITS, str(2 * int(HUNDRED_DIGITS)), id="hundred-digits"),
        pytest.param(HUNDRED_DIGITS, "-" + HUNDRED_DIGITS, "0", id="cancelling"),
        pytest.param("9" * 60, 1, "1" + "0" * 60, id="carry-into-new-digit"),
        pytest.param(3.0, 4, "7", id="integral-json-number"),
    ],
)
@pytest.mark.anyio
async def test_add_returns_the_exact_sum_as_digits(call: Call, a: Any, b: Any, expected: str) -> None:
    result = await call(ADD, {"a": a, "b": b})
    assert result.structured is not None
    assert result.structured["result"] == expected
    assert result.structured["digits"] == len(expected.lstrip("-"))
    assert result.text.startswith(f"Result: {expected}\n")


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        pytest.param(0.1, 0.2, "0.3", id="the-sum-binary-floating-point-gets-wrong"),
        pytest.param("0.1", "0.2", "0.3", id="decimal-strings"),
        pytest.param("-12.50", "0.5", "-12.00", id="keeps-the-operands-decimal-places"),
        pytest.param("12.50", 0.5, "13.00", id="string-and-json-number"),
        pytest.param("1e-30", 1, "1." + "0" * 29 + "1", id="exponent-written-out"),
        pytest.param("1E3", "-1.5", "998.5", id="capital-exponent"),
        pytest.param(".5", "5.", "5.5", id="bare-points"),
        pytest.param("-0.0", "0", "0.0", id="negative-zero-becomes-zero"),
        pytest.param("0.1", "-0.1", "0.0", id="cancelling-decimals"),
        pytest.param(1e-7, 0, "0.0000001", id="small-json-number-by-its-shortest-form"),
        pytest.param(HUNDRED_DIGITS, "0." + HUNDRED_DIGITS, HUNDRED_DIGITS + "." + HUNDRED_DIGITS, id="long-both-ways"),
    ],
)
@pytest.mark.anyio
async def test_add_sums_decimals_exactly_and_writes_the_sum_out_in_full(
    call: Call, a: Any, b: Any, expected: str
) -> None:
    result = await call(ADD, {"a": a, "b": b})
    assert result.structured is not None
    assert result.structured["result"] == expected
    assert result.structured["digits"] == sum(c.isdigit() for c in expected)
    assert result.text.startswith(f"Result: {expected}\n")


@pytest.mark.anyio
async def test_the_sum_of_point_one_and_point_two_is_stated_plainly(call: Call) -> None:
    result = await call(ADD, {"a": 0.1, "b": 0.2})
    assert result.structured == {"result": "0.3", "digits": 2, "a": "0.1", "b": "0.2"}
    assert result.text == "Result: 0.3\n0.1 + 0.2 = 0.3 (2 digits)"


@pytest.mark.anyio
async def test_add_takes_the_widest_operands_in_both_directions(call: Call) -> None:
    big = "9" * MAX_INTEGER_DIGITS
    tiny = f"1e-{MAX_INTEGER_DIGITS - 1}"  # 0.000...1 written out is exactly MAX_INTEGER_DIGITS digits
    result = await call(ADD, {"a": big, "b": tiny})
    assert result.structured is not None
    assert result.structured["result"] == big + "." + "0" * (MAX_INTEGER_DIGITS - 2) + "1"


@pytest.mark.anyio
async def test_add_echoes_the_operands_in_canonical_form(call: Call) -> None:
    result = await call(ADD, {"a": "+0042", "b": -5})
    assert result.structured == {"result": "37", "digits": 2, "a": "42", "b": "-5"}
    assert result.text == "Result: 37\n42 + (-5) = 37 (2 digits)"


@pytest.mark.anyio
async def test_add_handles_the_longest_accepted_operands_beyond_pythons_int_string_limit(call: Call) -> None:
    nines = "9" * MAX_INTEGER_DIGITS
    result = await call(ADD, {"a": nines, "b": nines})
    assert result.structured is not None
    assert result.structured["result"] == "1" + "9" * (MAX_INTEGER_DIGITS - 1) + "8"
    assert result.structured["digits"] == MAX_INTEGER_DIGITS + 1


def test_the_description_example_is_what_add_returns() -> None:
    assert '{"a": "123456789012345678901234567890", "b": -30} gives Result: 123456789012345678901234567860' in (
        ADD.description
    )
    result = add({"a": "123456789012345678901234567890", "b": -30})
    assert result.text.startswith("Result: 123456789012345678901234567860\n")


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"a": 1, "b": 2}, id="integers"),
        pytest.param({"a": "-123", "b": "+456"}, id="signed-strings"),
        pytest.param({"a": 10**40, "b": HUNDRED_DIGITS}, id="big"),
        pytest.param({"a": 1.0, "b": 2}, id="json-integer-written-with-zero-fraction"),
        pytest.param({"a": 1.5, "b": "-0.25"}, id="decimals"),
        pytest.param({"a": "1e-30", "b": "2E+5"}, id="exponents"),
    ],
)
def test_the_add_schema_accepts_numbers_and_decimal_strings(arguments: dict[str, Any]) -> None:
    assert SCHEMA.is_valid(arguments)


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"a": 1}, id="missing-b"),
        pytest.param({}, id="missing-both"),
        pytest.param({"a": 1, "b": 2, "c": 3}, id="extra-argument"),
        pytest.param({"a": True, "b": 2}, id="boolean"),
        pytest.param({"a": None, "b": 2}, id="null"),
        pytest.param({"a": [1], "b": 2}, id="array"),
        pytest.param({"a": {"value": 1}, "b": 2}, id="object"),
        pytest.param({"a": "1" * (MAX_ADD_CHARS + 1), "b": 2}, id="too-long"),
    ],
)
def test_the_add_schema_rejects_anything_but_two_numbers(arguments: dict[str, Any]) -> None:
    assert not SCHEMA.is_valid(arguments)


@pytest.mark.parametrize(
    ("a", "message"),
    [
        pytest.param(True, "not the boolean True", id="boolean"),
        pytest.param(1e20, 'pass big numbers as strings of digits, e.g. "100000000000000000000"', id="huge-float"),
        pytest.param(float("inf"), "is not a finite number", id="infinity"),
        pytest.param("12a", "is not a decimal number; write digits with an optional sign, decimal point", id="letters"),
        pytest.param("", "is not a decimal number", id="empty"),
        pytest.param(" 12", "is not a decimal number", id="whitespace"),
        pytest.param("1.2.3", "is not a decimal number", id="two-points"),
        pytest.param("0x10", "is not a decimal number", id="hexadecimal"),
        pytest.param("NaN", "is not a decimal number", id="not-a-number"),
        pytest.param("12\n", "is not a decimal number", id="trailing-newline"),
        pytest.param("9" * (MAX_INTEGER_DIGITS + 1), f"more than {MAX_INTEGER_DIGITS} digits", id="long-string"),
        pytest.param(10**MAX_INTEGER_DIGITS, f"more than {MAX_INTEGER_DIGITS} digits", id="long-integer"),
        pytest.param(f"1e-{MAX_INTEGER_DIGITS}", "when written out in full", id="tiny-exponent"),
        pytest.param(f"1e{MAX_INTEGER_DIGITS}", "when written out in full", id="big-exponent"),
        pytest.param("1e-999999999999", "when written out in full", id="huge-exponent-refused-without-expanding"),
    ],
)
def test_add_itself_refuses_what_it_cannot_sum_exactly_and_explains_why(a: Any, message: str) -> None:
    with pytest.raises(ToolError, match=r"^Error: a") as caught:
        add({"a": a, "b": 1})
    assert message in caught.value.message


@given(st.integers(), st.integers(), st.booleans(), st.booleans())
def test_add_agrees_with_python_integer_addition(a: int, b: int, a_as_text: bool, b_as_text: bool) -> None:
    result = add({"a": str(a) if a_as_text else a, "b": str(b) if b_as_text else b})
    assert result.structured is not None
    assert result.structured["result"] == str(a + b)


decimals = st.builds(lambda mantissa, exponent: Decimal(mantissa).scaleb(exponent), st.integers(), st.integers(-60, 60))


@given(decimals, decimals)
def test_add_agrees_with_exact_rational_addition(a: Decimal, b: Decimal) -> None:
    result = add({"a": str(a), "b": str(b)})
    assert result.structured is not None
    assert Fraction(result.structured["result"]) == Fraction(a) + Fraction(b)
    assert "e" not in result.structured["result"].lower()


def test_zero_with_a_huge_exponent_is_zero() -> None:
    result = add({"a": "0e999999999", "b": "7"})
    assert result.structured is not None
    assert result.structured["result"] == "7"
