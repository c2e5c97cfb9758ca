"""``divide``: exact rational division, rounded as asked, with the fraction, the exact decimal and, for whole
numbers, quotient and remainder (see :mod:`.decimals` for the numbers it reads)."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from decimal import (
    MAX_EMAX,
    MIN_EMIN,
    ROUND_CEILING,
    ROUND_DOWN,
    ROUND_FLOOR,
    ROUND_HALF_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
    Context,
    Decimal,
    Inexact,
)
from fractions import Fraction
from typing import Any

from sandbox_server.errors import ToolError
from sandbox_server.registry import PURE_COMPUTATION, ToolSpec, pure
from sandbox_server.results import ToolResult, ok
from sandbox_server.tools.checks import problems, refuse
from sandbox_server.tools.decimals import (
    _DECIMAL,
    DEFAULT_PRECISION,
    DEFAULT_ROUNDING,
    MAX_DECIMAL_CHARS,
    MAX_EXPANSION_CHARS,
    MAX_EXPONENT,
    MAX_PRECISION,
    _fraction_text,
    _number_argument,
    _operand_like,
    integer_text,
)

__all__ = [
    "DEFAULT_PRECISION",
    "DEFAULT_ROUNDING",
    "DIVIDE",
    "MAX_DECIMAL_CHARS",
    "MAX_EXPONENT",
    "MAX_PRECISION",
    "ROUNDING_MODES",
    "divide",
]


# --- divide ------------------------------------------------------------------------------------------------------


def _decimal_operand(name: str, value: Any) -> tuple[Decimal, str]:
    """Read one ``divide`` operand exactly; returns the value and the decimal text it was read from."""
    if isinstance(value, bool):
        raise ToolError(f"Error: {name} must be a number or a decimal string, not the boolean {value!r}.")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ToolError(f"Error: {name} = {value!r} is not a finite number.")
        text = repr(value)
    elif isinstance(value, int):
        text = integer_text(value)
    elif isinstance(value, str):
        text = value
    else:
        raise ToolError(f"Error: {name} must be a number or a decimal string.")
    shown = text if len(text) <= 60 else text[:57] + "..."
    if len(text) > MAX_DECIMAL_CHARS:
        raise ToolError(f"Error: {name} is longer than {MAX_DECIMAL_CHARS} characters, the most divide accepts.")
    if _DECIMAL.fullmatch(text) is None:
        raise ToolError(
            f"Error: {name} = {shown!r} is not a decimal number; write digits with an optional sign, decimal point "
            'and exponent, e.g. "0.1", "-3.25e4", "1e-30".'
        )
    exponent = re.search(r"[eE]([+-]?[0-9]+)$", text)
    mantissa = text[: exponent.start()] if exponent else text
    if not re.search(r"[1-9]", mantissa):
        return Decimal(0), text
    # An exponent of seven or more digits is out of range whatever the mantissa; checking it first avoids
    # building a number with a billion zeros.
    huge_exponent = exponent is not None and len(exponent.group(1).lstrip("+-").lstrip("0")) > 6
    number = Decimal(0) if huge_exponent else Decimal(text)
    if huge_exponent or abs(number.adjusted()) > MAX_EXPONENT:
        raise ToolError(
            f"Error: {name} = {shown!r} is out of range; divide accepts magnitudes from 1e-{MAX_EXPONENT} to "
            f"1e+{MAX_EXPONENT} (and zero). For larger scales, divide the mantissas and add the exponents yourself."
        )
    return number, text


def _scientific_or_plain(value: Decimal, precision: int) -> str:
    """Plain notation for magnitudes from 1e-6 up to ``precision`` integer digits, scientific otherwise."""
    if not value:
        return "0"
    sign, digit_tuple, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    digits = "".join(map(str, digit_tuple)).rstrip("0")
    exponent += len(digit_tuple) - len(digits)
    adjusted = len(digits) - 1 + exponent
    minus = "-" if sign else ""
    if -6 <= adjusted < precision:
        if exponent >= 0:
            return minus + digits + "0" * exponent
        if adjusted >= 0:
            return f"{minus}{digits[: adjusted + 1]}.{digits[adjusted + 1 :]}"
        return f"{minus}0.{'0' * (-adjusted - 1)}{digits}"
    mantissa = digits if len(digits) == 1 else f"{digits[0]}.{digits[1:]}"
    return f"{minus}{mantissa}e{adjusted:+d}"


def _expansion(value: Fraction) -> str | None:
    """The exact decimal expansion, the repeating block in parentheses (``1/6`` is ``0.1(6)``); None if too long."""
    numerator, denominator = abs(value.numerator), value.denominator
    whole, rest = divmod(numerator, denominator)
    head = ("-" if value < 0 else "") + integer_text(whole)
    if rest == 0:
        return head
    budget = MAX_EXPANSION_CHARS - len(head) - 3
    twos = (denominator & -denominator).bit_length() - 1
    fives, reduced = 0, denominator
    while reduced % 5 == 0 and fives <= budget:
        reduced //= 5
        fives += 1
    # Digits before the repeating block: as many as the larger power of 2 or 5 dividing the denominator.
    prefix_length = max(twos, fives)
    if prefix_length > budget:
        return None
    prefix = []
    for _ in range(prefix_length):
        digit, rest = divmod(rest * 10, denominator)
        prefix.append(str(digit))
    if rest == 0:
        return f"{head}.{''.join(prefix)}"
    start, block = rest, []
    while True:
        digit, rest = divmod(rest * 10, denominator)
        block.append(str(digit))
        if rest == start:
            return f"{head}.{''.join(prefix)}({''.join(block)})"
        if len(prefix) + len(block) >= budget:
            return None


ROUNDING_MODES = {
    "half-even": (ROUND_HALF_EVEN, "ties to even"),
    "half-up": (ROUND_HALF_UP, "ties away from zero"),
    "half-down": (ROUND_HALF_DOWN, "ties toward zero"),
    "down": (ROUND_DOWN, "toward zero"),
    "up": (ROUND_UP, "away from zero"),
    "floor": (ROUND_FLOOR, "toward negative infinity"),
    "ceiling": (ROUND_CEILING, "toward positive infinity"),
}
"""``divide``'s rounding choices: the ``decimal`` module's mode and how the result text describes it."""


def _digit_count(name: str, value: Any, lowest: int) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= MAX_PRECISION:
        raise ToolError(f"Error: {name} = {value!r} is not allowed; use an integer from {lowest} to {MAX_PRECISION}.")
    return value


def _round_to_integer(value: Fraction, mode: str) -> int:
    """``value`` rounded to an integer by one of :data:`ROUNDING_MODES`, computed exactly."""
    below = math.floor(value)
    rest = value - below
    if rest == 0:
        return below
    above = below + 1
    toward_zero, away_from_zero = (below, above) if value > 0 else (above, below)
    if mode in ("floor", "ceiling", "down", "up"):
        return {"floor": below, "ceiling": above, "down": toward_zero, "up": away_from_zero}[mode]
    if rest != Fraction(1, 2):
        return below if rest < Fraction(1, 2) else above
    return {"half-even": below if below % 2 == 0 else above, "half-up": away_from_zero}.get(mode, toward_zero)


def _fixed_point(value: Fraction, places: int, mode: str) -> tuple[str, bool]:
    """``value`` rounded to ``places`` digits after the point, written with all of them; and whether it is exact."""
    scaled = value * 10**places
    units = _round_to_integer(scaled, mode)
    digits = integer_text(abs(units)).rjust(places + 1, "0")
    text = f"{digits[:-places]}.{digits[-places:]}" if places else digits
    return ("-" if units < 0 else "") + text, units == scaled


def _rounding_choice(arguments: dict[str, Any]) -> tuple[str, int | None, int | None]:
    """The rounding mode, and either significant digits or decimal places (never both)."""
    mode = arguments.get("rounding", DEFAULT_ROUNDING)
    if mode not in ROUNDING_MODES:
        raise ToolError(f"Error: rounding = {str(mode)[:30]!r} is not allowed; use one of {', '.join(ROUNDING_MODES)}.")
    if "decimal_places" in arguments:
        if "precision" in arguments:
            raise ToolError(
                "Error: precision and decimal_places were both given; send only one: precision for significant "
                "digits (1/3 with precision 2 is 0.33, 100/3 is 33), decimal_places for digits after the point "
                "(100/3 with decimal_places 2 is 33.33)."
            )
        return mode, None, _digit_count("decimal_places", arguments["decimal_places"], 0)
    return mode, _digit_count("precision", arguments.get("precision", DEFAULT_PRECISION), 1), None


def _nonzero_divisor(value: Any) -> None:
    number, _ = _decimal_operand("b", value)
    if not number:
        raise ToolError("Error: Division by zero is not allowed.")


def _one_rounding_target(arguments: dict[str, Any]) -> None:
    if "decimal_places" in arguments and "precision" in arguments:
        _rounding_choice(arguments)


def _divide_checks(arguments: dict[str, Any]) -> list[str]:
    checks: list[Callable[[], object]] = []
    if _operand_like(arguments.get("a")):
        checks.append(functools.partial(_decimal_operand, "a", arguments["a"]))
    if _operand_like(arguments.get("b")):
        checks.append(functools.partial(_nonzero_divisor, arguments["b"]))
    checks.append(functools.partial(_one_rounding_target, arguments))
    return problems(checks)


def divide(arguments: dict[str, Any]) -> ToolResult:
    """Divide exactly; report the rounded quotient, the fraction and, for integers, quotient and remainder."""
    refuse(_divide_checks(arguments))
    a, a_text = _decimal_operand("a", arguments["a"])
    b, b_text = _decimal_operand("b", arguments["b"])
    mode, precision, places = _rounding_choice(arguments)
    if not b:
        raise ToolError("Error: Division by zero is not allowed.")

    fraction = Fraction(a) / Fraction(b)
    if places is None:
        assert precision is not None
        context = Context(prec=precision, rounding=ROUNDING_MODES[mode][0], Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[])
        result = _scientific_or_plain(context.divide(a, b), precision)
        exact = not context.flags[Inexact]
        rounded_to = f"{precision} significant digits"
    else:
        result, exact = _fixed_point(fraction, places, mode)
        rounded_to = f"{places} decimal place{'' if places == 1 else 's'}"
    if result.startswith("-") and not re.search(r"[1-9]", result):
        result = result[1:]  # no negative zero
    expansion = _expansion(fraction)
    floor_quotient = remainder = None
    if Fraction(a).denominator == 1 and Fraction(b).denominator == 1:
        whole_a, whole_b = int(a), int(b)
        floor_quotient, remainder = integer_text(whole_a // whole_b), integer_text(whole_a % whole_b)

    lines = [f"Result: {result}", f"Division: {a_text} / {b_text}"]
    if exact:
        lines.append("Exact: yes")
    else:
        lines.append(f"Exact: no (rounded to {rounded_to}, {ROUNDING_MODES[mode][1]})")
    lines.append(f"Fraction: {_fraction_text(fraction)}")
    if expansion is not None:
        lines.append(f"Exact decimal (repeating digits in parentheses): {expansion}")
    if floor_quotient is not None:
        lines.append(f"Floor quotient: {floor_quotient}, remainder: {remainder} (a = b * quotient + remainder)")
    structured = {
        "result": result,
        "exact": exact,
        "precision": precision,
        "decimal_places": places,
        "rounding": mode,
        "fraction": _fraction_text(fraction),
        "exact_decimal": expansion,
        "floor_quotient": floor_quotient,
        "remainder": remainder,
        "a": a_text,
        "b": b_text,
    }
    return ok("\n".join(lines), structured)


_DIGIT_LIMITS = {"type": "integer", "maximum": MAX_PRECISION}

DIVIDE = ToolSpec(
    name="divide",
    title="Divide exactly",
    instruction="exact decimal division with the reduced fraction, quotient and remainder.",
    description=f"""\
Divide a by b exactly, never through binary floating point (0.3 / 0.1 is 3). Use it for any division whose \
digits matter: money, ratios, unit conversions, quotient and remainder.

Operands: JSON numbers or decimal strings ("0.1", "-3.25e4") of up to {MAX_DECIMAL_CHARS} characters, \
magnitudes 1e-{MAX_EXPONENT} to 1e+{MAX_EXPONENT} or zero; b is not zero. `result` is rounded to `precision` \
significant digits (default {DEFAULT_PRECISION}, at most {MAX_PRECISION}) or to `decimal_places` (at most \
{MAX_PRECISION}), never both; `fraction`, `exact_decimal` (repeating digits in parentheses) and, for whole \
operands, floor quotient and remainder are exact.

Example: {{"a": "100.00", "b": 3, "decimal_places": 2}} gives Result: 33.33, fraction 100/3.""",
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["a", "b"],
        "properties": {
            "a": _number_argument("Dividend.", MAX_DECIMAL_CHARS),
            "b": _number_argument("Divisor.", MAX_DECIMAL_CHARS),
            "precision": {**_DIGIT_LIMITS, "minimum": 1, "description": "Significant digits of result."},
            "decimal_places": {**_DIGIT_LIMITS, "minimum": 0, "description": "Digits after the point, e.g. 2."},
            "rounding": {
                "enum": list(ROUNDING_MODES),
                "default": DEFAULT_ROUNDING,
                "description": "Ties to even by default.",
            },
        },
    },
    output_schema={
        "type": "object",
        "additionalProperties": False,
        "required": [
            "result",
            "exact",
            "precision",
            "decimal_places",
            "rounding",
            "fraction",
            "exact_decimal",
            "floor_quotient",
            "remainder",
            "a",
            "b",
        ],
        "properties": {
            "result": {
                "type": "string",
                "description": "a / b rounded to `precision` significant digits (trailing zeros removed; scientific "
                "notation such as 1.5e+40 beyond 1e-6 and `precision` integer digits) or to `decimal_places` "
                "(always that many digits after the point).",
            },
            "exact": {"type": "boolean", "description": "Whether `result` equals the true quotient."},
            "precision": {
                "type": ["integer", "null"],
                "description": "Significant digits used for `result`; null when decimal_places applied.",
            },
            "decimal_places": {
                "type": ["integer", "null"],
                "description": "Digits after the point used for `result`; null when precision applied.",
            },
            "rounding": {
                "enum": list(ROUNDING_MODES),
                "description": "How `result` was rounded: half-even (ties to even), half-up (ties away from zero), "
                "half-down (ties toward zero), down (toward zero), up (away from zero), floor, ceiling.",
            },
            "fraction": {
                "type": "string",
                "pattern": r"^-?[0-9]+(?:/[0-9]+)?$",
                "description": "The exact quotient as a reduced fraction, or an integer.",
            },
            "exact_decimal": {
                "type": ["string", "null"],
                "description": "The exact quotient in decimal, repeating block in parentheses (0.1(6) is 1/6); "
                f"null beyond {MAX_EXPANSION_CHARS} characters.",
            },
            "floor_quotient": {
                "type": ["string", "null"],
                "description": "floor(a / b) when both operands are whole numbers, else null.",
            },
            "remainder": {
                "type": ["string", "null"],
                "description": "a - b * floor_quotient, with the sign of b (-7 / 2 gives -4 remainder 1), when both "
                "operands are whole numbers, else null.",
            },
            "a": {"type": "string", "description": "The dividend as read."},
            "b": {"type": "string", "description": "The divisor as read."},
        },
    },
    handler=pure(divide),
    icon="divide",
    annotations=PURE_COMPUTATION,
    check=_divide_checks,
)
