"""``divide``: exact rational division reported as a rounded decimal, a fraction and a repeating decimal."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sandbox_server.errors import ToolError
from sandbox_server.tools.divide import (
    DEFAULT_PRECISION,
    DIVIDE,
    MAX_EXPONENT,
    MAX_PRECISION,
    ROUNDING_MODES,
    divide,
)

from .calling import Call

SCHEMA = Draft202012Validator(DIVIDE.input_schema)
HUNDRED_DIGITS = "1234567890" * 10
THIRD = "0." + "3" * DEFAULT_PRECISION
DECIMALS_FOR_PLACES = st.decimals(
    allow_nan=False, allow_infinity=False, min_value=-(10**12), max_value=10**12, places=6
)


@pytest.mark.parametrize(
    ("arguments", "result", "exact", "fraction", "expansion"),
    [
        pytest.param({"a": 0.3, "b": 0.1}, "3", True, "3", "3", id="point-three-over-point-one"),
        pytest.param({"a": "0.1", "b": "0.3"}, THIRD, False, "1/3", "0.(3)", id="0.1/0.3"),
        pytest.param({"a": 1, "b": 3}, THIRD, False, "1/3", "0.(3)", id="third"),
        pytest.param({"a": 2, "b": 3}, "0.6666666666666666666666666666666667", False, "2/3", "0.(6)", id="rounds-up"),
        pytest.param({"a": -7, "b": 2}, "-3.5", True, "-7/2", "-3.5", id="negative-half"),
        pytest.param({"a": 10, "b": 4}, "2.5", True, "5/2", "2.5", id="ten-over-four"),
        pytest.param({"a": 1, "b": 6}, "0.1666666666666666666666666666666667", False, "1/6", "0.1(6)", id="sixth"),
        pytest.param({"a": 1, "b": 7, "precision": 8}, "0.14285714", False, "1/7", "0.(142857)", id="seventh"),
        pytest.param({"a": "-3.25e4", "b": "0.1"}, "-325000", True, "-325000", "-325000", id="exponent-string"),
        pytest.param({"a": "1e40", "b": 1}, "1e+40", True, "1" + "0" * 40, "1" + "0" * 40, id="scientific-large"),
        pytest.param({"a": 1, "b": "1e7"}, "1e-7", True, "1/10000000", "0.0000001", id="scientific-small"),
        pytest.param({"a": 1, "b": "1e6"}, "0.000001", True, "1/1000000", "0.000001", id="plain-small"),
        pytest.param(
            {"a": "1e-30", "b": 7},
            "1.428571428571428571428571428571429e-31",
            False,
            "1/7" + "0" * 30,
            "0." + "0" * 30 + "(142857)",
            id="tiny-repeating",
        ),
        pytest.param({"a": "-0", "b": 5}, "0", True, "0", "0", id="negative-zero-dividend"),
        pytest.param({"a": 0, "b": -2.5}, "0", True, "0", "0", id="zero-dividend"),
        pytest.param({"a": 5, "b": 1, "precision": 1}, "5", True, "5", "5", id="one-digit"),
        pytest.param({"a": 25, "b": 10, "precision": 1}, "2", False, "5/2", "2.5", id="tie-rounds-to-even-down"),
        pytest.param({"a": 35, "b": 10, "precision": 1}, "4", False, "7/2", "3.5", id="tie-rounds-to-even-up"),
        pytest.param({"a": 40, "b": 2, "precision": 1}, "2e+1", True, "20", "20", id="integer-wider-than-precision"),
    ],
)
@pytest.mark.anyio
async def test_divide_reports_the_rounded_quotient_its_exactness_and_the_exact_forms(
    call: Call, arguments: dict[str, Any], result: str, exact: bool, fraction: str, expansion: str
) -> None:
    outcome = await call(DIVIDE, arguments)
    assert outcome.structured is not None
    assert outcome.structured["result"] == result
    assert outcome.structured["exact"] is exact
    assert outcome.structured["fraction"] == fraction
    assert outcome.structured["exact_decimal"] == expansion
    assert outcome.structured["precision"] == arguments.get("precision", DEFAULT_PRECISION)
    assert outcome.text.startswith(f"Result: {result}\n")
    assert f"Fraction: {fraction}\n" in outcome.text


@pytest.mark.parametrize(
    ("a", "b", "quotient", "remainder"),
    [
        pytest.param(7, 2, "3", "1", id="positive"),
        pytest.param(-7, 2, "-4", "1", id="negative-dividend"),
        pytest.param(7, -2, "-4", "-1", id="negative-divisor-gives-negative-remainder"),
        pytest.param(-7, -2, "3", "-1", id="both-negative"),
        pytest.param(10, 4, "2", "2", id="ten-by-four"),
        pytest.param("1e3", 7.0, "142", "6", id="whole-numbers-in-other-spellings"),
        pytest.param(HUNDRED_DIGITS, "987654321", str(int(HUNDRED_DIGITS) // 987654321), None, id="hundred-digits"),
    ],
)
@pytest.mark.anyio
async def test_two_whole_numbers_also_get_floor_quotient_and_remainder(
    call: Call, a: Any, b: Any, quotient: str, remainder: str | None
) -> None:
    outcome = await call(DIVIDE, {"a": a, "b": b})
    assert outcome.structured is not None
    assert outcome.structured["floor_quotient"] == quotient
    whole_a, whole_b = int(Decimal(str(a))), int(Decimal(str(b)))
    assert outcome.structured["remainder"] == (remainder or str(whole_a % whole_b))
    assert f"Floor quotient: {quotient}, remainder: {outcome.structured['remainder']}" in outcome.text


@pytest.mark.anyio
async def test_a_fractional_operand_leaves_floor_quotient_and_remainder_null(call: Call) -> None:
    outcome = await call(DIVIDE, {"a": 7.5, "b": 2})
    assert outcome.structured is not None
    assert outcome.structured["floor_quotient"] is None
    assert outcome.structured["remainder"] is None
    assert "Floor quotient" not in outcome.text


@pytest.mark.anyio
async def test_a_json_float_is_read_by_its_shortest_decimal_form_not_its_binary_value(call: Call) -> None:
    outcome = await call(DIVIDE, {"a": 0.1, "b": 1})
    assert outcome.structured is not None
    assert outcome.structured["a"] == "0.1"
    assert outcome.structured["fraction"] == "1/10"
    assert Fraction(0.1) != Fraction(1, 10)  # what a binary reading would have given


@pytest.mark.anyio
async def test_a_large_precision_gives_that_many_significant_digits(call: Call) -> None:
    outcome = await call(DIVIDE, {"a": 1, "b": 3, "precision": MAX_PRECISION})
    assert outcome.structured is not None
    assert outcome.structured["result"] == "0." + "3" * MAX_PRECISION


@pytest.mark.anyio
async def test_a_quotient_too_long_to_write_out_has_no_exact_decimal_but_keeps_its_fraction(call: Call) -> None:
    outcome = await call(DIVIDE, {"a": f"1e{MAX_EXPONENT}", "b": f"3e-{MAX_EXPONENT}"})
    assert outcome.structured is not None
    assert outcome.structured["exact_decimal"] is None
    assert outcome.structured["fraction"] == "1" + "0" * (2 * MAX_EXPONENT) + "/3"
    assert outcome.structured["result"] == "3.333333333333333333333333333333333e+1999"
    assert "Exact decimal" not in outcome.text


@pytest.mark.anyio
async def test_the_extreme_accepted_magnitudes_divide_exactly(call: Call) -> None:
    outcome = await call(DIVIDE, {"a": f"-1e-{MAX_EXPONENT}", "b": f"1e{MAX_EXPONENT}"})
    assert outcome.structured is not None
    assert outcome.structured["result"] == f"-1e-{2 * MAX_EXPONENT}"
    assert outcome.structured["exact"] is True


def test_the_description_example_is_what_divide_returns() -> None:
    assert '{"a": "100.00", "b": 3, "decimal_places": 2} gives Result: 33.33, fraction 100/3.' in DIVIDE.description
    outcome = divide({"a": "100.00", "b": 3, "decimal_places": 2})
    assert outcome.structured is not None
    assert outcome.text.startswith("Result: 33.33\n")
    assert (outcome.structured["exact"], outcome.structured["fraction"]) == (False, "100/3")


@pytest.mark.parametrize(
    ("arguments", "result", "exact"),
    [
        pytest.param({"a": "100.00", "b": 3, "decimal_places": 2}, "33.33", False, id="cents"),
        pytest.param({"a": 100, "b": 4, "decimal_places": 2}, "25.00", True, id="keeps-every-place"),
        pytest.param({"a": 2, "b": 3, "decimal_places": 0}, "1", False, id="whole-number"),
        pytest.param({"a": 1, "b": 8, "decimal_places": 2}, "0.12", False, id="tie-to-even-down"),
        pytest.param({"a": 3, "b": 8, "decimal_places": 2}, "0.38", False, id="tie-to-even-up"),
        pytest.param({"a": "-0.001", "b": 1, "decimal_places": 2}, "0.00", False, id="no-negative-zero"),
        pytest.param({"a": "1e1000", "b": "1e-1000", "decimal_places": 1}, "1" + "0" * 2000 + ".0", True, id="huge"),
        pytest.param({"a": 1, "b": 7, "decimal_places": 30}, "0.142857142857142857142857142857", False, id="long"),
        pytest.param({"a": -1, "b": 3, "decimal_places": 3}, "-0.333", False, id="negative"),
    ],
)
@pytest.mark.anyio
async def test_decimal_places_fix_the_digits_after_the_point(
    call: Call, arguments: dict[str, Any], result: str, exact: bool
) -> None:
    outcome = await call(DIVIDE, arguments)
    assert outcome.structured is not None
    assert (outcome.structured["result"], outcome.structured["exact"]) == (result, exact)
    assert (outcome.structured["precision"], outcome.structured["decimal_places"]) == (
        None,
        arguments["decimal_places"],
    )
    assert outcome.text.startswith(f"Result: {result}\n")


def test_a_rounded_fixed_point_result_says_how_it_was_rounded() -> None:
    outcome = divide({"a": "100.00", "b": 3, "decimal_places": 2})
    assert outcome.text.splitlines()[2] == "Exact: no (rounded to 2 decimal places, ties to even)"
    outcome = divide({"a": 1, "b": 3, "decimal_places": 1, "rounding": "ceiling"})
    assert outcome.text.splitlines()[2] == "Exact: no (rounded to 1 decimal place, toward positive infinity)"


# Each mode on the values Python's decimal module documents for it: 2.5, -2.5, 2.4 and -2.6, halves and not.
ROUNDED = {
    "half-even": ["2", "-2", "2", "-3", "0"],
    "half-up": ["3", "-3", "2", "-3", "1"],
    "half-down": ["2", "-2", "2", "-3", "0"],
    "down": ["2", "-2", "2", "-2", "0"],
    "up": ["3", "-3", "3", "-3", "1"],
    "floor": ["2", "-3", "2", "-3", "0"],
    "ceiling": ["3", "-2", "3", "-2", "1"],
}


@pytest.mark.parametrize("mode", list(ROUNDING_MODES))
@pytest.mark.parametrize("digits", ["decimal_places", "precision"])
def test_every_rounding_mode_rounds_both_ways_of_counting_digits_as_the_decimal_module_does(
    mode: str, digits: str
) -> None:
    # 0.5 rounds to 0 or 1 when counting places; as one significant digit it is exact, so that case needs places.
    cases = [("5", "2"), ("-5", "2"), ("12", "5"), ("-13", "5"), ("1", "2")]
    count = 0 if digits == "decimal_places" else 1
    got = []
    for a, b in cases[: 5 if digits == "decimal_places" else 4]:
        outcome = divide({"a": a, "b": b, digits: count, "rounding": mode})
        assert outcome.structured is not None
        assert outcome.structured["rounding"] == mode
        got.append(outcome.structured["result"])
        oracle = (Decimal(a) / Decimal(b)).quantize(Decimal(1), rounding=ROUNDING_MODES[mode][0])
        assert Decimal(got[-1]) == oracle
    assert got == ROUNDED[mode][: len(got)]


def test_precision_and_decimal_places_together_are_an_error_that_says_which_to_send() -> None:
    with pytest.raises(ToolError) as caught:
        divide({"a": 100, "b": 3, "precision": 2, "decimal_places": 2})
    message = caught.value.message
    assert message.startswith("Error: precision and decimal_places were both given; send only one")
    assert "precision for significant digits" in message
    assert "decimal_places for digits after the point" in message


@given(DECIMALS_FOR_PLACES, DECIMALS_FOR_PLACES.filter(bool), st.integers(0, 40), st.sampled_from(list(ROUNDING_MODES)))
def test_decimal_places_agree_with_the_decimal_module_at_ample_precision(
    a: Decimal, b: Decimal, places: int, mode: str
) -> None:
    outcome = divide({"a": str(a), "b": str(b), "decimal_places": places, "rounding": mode})
    assert outcome.structured is not None
    # The exact quotient's 200 significant digits settle every rounding decision for these operand sizes.
    with localcontext(prec=200):
        expected = (a / b).quantize(Decimal(1).scaleb(-places), rounding=ROUNDING_MODES[mode][0])
    result = outcome.structured["result"]
    assert Decimal(result) == expected
    assert len(result.partition(".")[2]) == places


@pytest.mark.parametrize("zero", [0, 0.0, "0", "-0.0", "0e5", "0e99999999999"])
def test_division_by_zero_is_a_tool_error_the_model_can_read(zero: Any) -> None:
    with pytest.raises(ToolError) as caught:
        divide({"a": 1, "b": zero})
    assert caught.value.message == "Error: Division by zero is not allowed."


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("1e999999999", id="huge-exponent"),
        pytest.param("-1e-999999999999999999999999", id="huge-negative-exponent"),
        pytest.param(f"1e{MAX_EXPONENT + 1}", id="just-too-large"),
        pytest.param(f"1e-{MAX_EXPONENT + 1}", id="just-too-small"),
        pytest.param("0." + "0" * 1000 + "1", id="too-small-by-leading-zeros"),
        pytest.param(10 ** (MAX_EXPONENT + 1), id="huge-integer"),
    ],
)
def test_operands_beyond_the_exponent_range_are_refused_quickly_with_the_range(value: Any) -> None:
    with pytest.raises(ToolError, match=r"^Error: a = .* is out of range; divide accepts magnitudes from 1e-1000"):
        divide({"a": value, "b": 3})


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param({"a": "abc", "b": 1}, "Error: a = 'abc' is not a decimal number", id="letters"),
        pytest.param({"a": 1, "b": "1/3"}, "Error: b = '1/3' is not a decimal number", id="fraction-string"),
        pytest.param({"a": "0x10", "b": 1}, "Error: a = '0x10' is not a decimal number", id="hex"),
        pytest.param({"a": "1,5", "b": 1}, "Error: a = '1,5' is not a decimal number", id="decimal-comma"),
        pytest.param({"a": "Infinity", "b": 1}, "Error: a = 'Infinity' is not a decimal number", id="infinity-string"),
        pytest.param({"a": ".", "b": 1}, "Error: a = '.' is not a decimal number", id="lone-point"),
        pytest.param({"a": "1e", "b": 1}, "Error: a = '1e' is not a decimal number", id="empty-exponent"),
        pytest.param(
            {"a": 1, "b": 1, "decimal_places": -1}, "Error: decimal_places = -1 is not allowed", id="negative-places"
        ),
        pytest.param(
            {"a": 1, "b": 1, "rounding": "nearest"},
            "Error: rounding = 'nearest' is not allowed; use one of half-even, half-up, half-down, down, up, floor, "
            "ceiling.",
            id="unknown-rounding",
        ),
        pytest.param({"a": True, "b": 1}, "Error: a must be a number or a decimal string", id="boolean"),
        pytest.param({"a": float("nan"), "b": 1}, "Error: a = nan is not a finite number", id="nan"),
        pytest.param({"a": 1, "b": float("inf")}, "Error: b = inf is not a finite number", id="infinity"),
        pytest.param({"a": "1" * 1101, "b": 1}, "Error: a is longer than 1100 characters", id="too-long"),
        pytest.param({"a": 1, "b": 1, "precision": 0}, "Error: precision = 0 is not allowed", id="precision-zero"),
        pytest.param({"a": 1, "b": 1, "precision": 1001}, "Error: precision = 1001", id="precision-too-big"),
        pytest.param({"a": 1, "b": 1, "precision": 2.5}, "Error: precision = 2.5", id="precision-fraction"),
    ],
)
def test_divide_itself_refuses_bad_operands_with_a_message_saying_what_to_send(
    arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(ToolError) as caught:
        divide(arguments)
    assert caught.value.message.startswith(message)


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"a": 1, "b": 3}, id="integers"),
        pytest.param({"a": 0.1, "b": -2.5}, id="floats"),
        pytest.param({"a": "0.1", "b": "-3.25e4"}, id="strings"),
        pytest.param({"a": "1.", "b": ".5"}, id="bare-points"),
        pytest.param({"a": "1E-30", "b": "+2e+3"}, id="capital-exponent-and-signs"),
        pytest.param({"a": 1, "b": 3, "precision": 1}, id="least-precision"),
        pytest.param({"a": 1, "b": 3, "precision": MAX_PRECISION}, id="most-precision"),
    ],
)
def test_the_divide_schema_accepts_numbers_and_decimal_strings(arguments: dict[str, Any]) -> None:
    assert SCHEMA.is_valid(arguments)


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"a": 1}, id="missing-b"),
        pytest.param({"a": 1, "b": 2, "scale": 3}, id="extra-argument"),
        pytest.param({"a": True, "b": 2}, id="boolean"),
        pytest.param({"a": None, "b": 2}, id="null"),
        pytest.param({"a": [1], "b": 2}, id="array"),
        pytest.param({"a": "1" * 1101, "b": 2}, id="too-long"),
        pytest.param({"a": 1, "b": 2, "precision": 0}, id="precision-zero"),
        pytest.param({"a": 1, "b": 2, "precision": MAX_PRECISION + 1}, id="precision-too-big"),
        pytest.param({"a": 1, "b": 2, "precision": 2.5}, id="precision-fraction"),
        pytest.param({"a": 1, "b": 2, "precision": "5"}, id="precision-string"),
        pytest.param({"a": 1, "b": 2, "decimal_places": -1}, id="negative-decimal-places"),
        pytest.param({"a": 1, "b": 2, "decimal_places": MAX_PRECISION + 1}, id="decimal-places-too-big"),
        pytest.param({"a": 1, "b": 2, "rounding": "HALF_UP"}, id="rounding-not-a-listed-mode"),
        pytest.param({"a": 1, "b": 2, "rounding": "banker"}, id="rounding-unknown"),
    ],
)
def test_the_divide_schema_rejects_what_is_not_a_number(arguments: dict[str, Any]) -> None:
    assert not SCHEMA.is_valid(arguments)


DECIMALS = st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**30), max_value=10**30, places=12)


@given(DECIMALS, DECIMALS.filter(bool), st.integers(min_value=1, max_value=60))
def test_the_fraction_times_the_divisor_is_the_dividend(a: Decimal, b: Decimal, precision: int) -> None:
    outcome = divide({"a": str(a), "b": str(b), "precision": precision})
    assert outcome.structured is not None
    quotient = Fraction(outcome.structured["fraction"])
    assert quotient * Fraction(b) == Fraction(a)
    rounded = Fraction(Decimal(outcome.structured["result"]))
    assert (rounded == quotient) is outcome.structured["exact"]
    if quotient:
        # Correct rounding: within half a unit in the last of `precision` significant digits.
        exponent = Decimal(outcome.structured["result"]).adjusted()
        assert abs(rounded - quotient) * 2 <= Fraction(10) ** (exponent - precision + 1)


DIVIDENDS = st.integers(min_value=-(10**40), max_value=10**40)
DIVISORS = st.integers(min_value=-(10**9), max_value=10**9).filter(bool)


@given(DIVIDENDS, DIVISORS)
def test_floor_quotient_and_remainder_follow_python_floor_division(a: int, b: int) -> None:
    outcome = divide({"a": a, "b": str(b)})
    assert outcome.structured is not None
    assert outcome.structured["floor_quotient"] == str(a // b)
    assert outcome.structured["remainder"] == str(a % b)
    expansion = outcome.structured["exact_decimal"]
    if expansion is not None:  # None when the repeating block is too long to write out
        assert expansion_value(expansion) == Fraction(a, b)


def expansion_value(expansion: str) -> Fraction:
    """The number a decimal with a parenthesised repeating block stands for."""
    if "(" not in expansion:
        return Fraction(expansion)
    head, block = expansion.rstrip(")").split("(")
    sign = -1 if head.startswith("-") else 1
    places = len(head.partition(".")[2])
    repeating = Fraction(int(block), 10 ** len(block) - 1) / Fraction(10) ** places
    return Fraction(head.rstrip(".")) + sign * repeating


@pytest.mark.parametrize(
    ("expansion", "value"),
    [
        pytest.param("0.(3)", Fraction(1, 3), id="third"),
        pytest.param("-0.1(6)", Fraction(-1, 6), id="negative-sixth"),
        pytest.param("2.5", Fraction(5, 2), id="terminating"),
    ],
)
def test_the_expansion_reader_used_by_these_tests_is_right(expansion: str, value: Fraction) -> None:
    assert expansion_value(expansion) == value
