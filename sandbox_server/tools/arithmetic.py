"""Exact arithmetic: ``add`` for integers of any size and ``divide`` as exact rational division.

Numbers are carried as ``decimal.Decimal`` (exact for every value a decimal string can write) and
``fractions.Fraction``, never as binary floats. A JSON number that arrives as a Python float is read through its
shortest decimal form (``repr``), so ``0.1`` means one tenth. Big integers are turned into text through
``Decimal`` because ``str(int)`` refuses integers longer than ``sys.get_int_max_str_digits()``.
"""

from __future__ import annotations

import math
import re
from decimal import MAX_EMAX, MIN_EMIN, ROUND_HALF_EVEN, Context, Decimal, Inexact, InvalidOperation
from fractions import Fraction
from typing import Any

from sandbox_server.errors import ToolError
from sandbox_server.registry import PURE_COMPUTATION, ToolSpec, pure
from sandbox_server.results import ToolResult, ok

__all__ = [
    "ADD",
    "DEFAULT_PRECISION",
    "DIVIDE",
    "MAX_DECIMAL_CHARS",
    "MAX_EXPONENT",
    "MAX_INTEGER_DIGITS",
    "MAX_PRECISION",
    "add",
    "divide",
]

MAX_INTEGER_DIGITS = 10_000
"""Most digits ``add`` accepts in one operand."""
FLOAT_INTEGER_LIMIT = 2**53
"""Above this a JSON number may have been rounded by the sender's float parser, so big integers must be strings."""
DEFAULT_PRECISION = 34
"""Significant digits of ``divide``'s rounded result when the caller names none (IEEE 754 decimal128)."""
MAX_PRECISION = 1_000
"""The largest ``precision`` a caller may ask ``divide`` for."""
MAX_DECIMAL_CHARS = 1_100
"""Longest decimal string ``divide`` accepts as an operand."""
MAX_EXPONENT = 1_000
"""``divide`` operands must lie between 1e-1000 and 1e+1000 in magnitude (or be zero)."""
MAX_EXPANSION_CHARS = 2_000
"""Longest exact decimal expansion ``divide`` writes out; beyond it only the fraction is exact."""

INTEGER_PATTERN = r"^[+-]?[0-9]+$"
DECIMAL_PATTERN = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
_DECIMAL = re.compile(DECIMAL_PATTERN)
_INTEGER_LIMIT = 10**MAX_INTEGER_DIGITS
# Exact integer addition: enough digits that no sum of two accepted operands is ever rounded.
_EXACT = Context(prec=MAX_INTEGER_DIGITS + 2, rounding=ROUND_HALF_EVEN, traps=[Inexact, InvalidOperation])


def integer_text(value: int) -> str:
    """An integer in decimal, whatever its size (``str(int)`` has an interpreter-wide digit limit)."""
    return str(Decimal(value))


def _fraction_text(value: Fraction) -> str:
    text = integer_text(value.numerator)
    return text if value.denominator == 1 else f"{text}/{integer_text(value.denominator)}"


# --- add ---------------------------------------------------------------------------------------------------------


def _integer_operand(name: str, value: Any) -> Decimal:
    """Read one ``add`` operand as an exact integral Decimal."""
    if isinstance(value, bool):
        raise ToolError(f"Error: {name} must be an integer or a string of digits, not the boolean {value!r}.")
    if isinstance(value, float):
        if not value.is_integer():
            raise ToolError(f"Error: {name} = {value!r} is not an integer; add only sums integers.")
        if abs(value) > FLOAT_INTEGER_LIMIT:
            raise ToolError(
                f"Error: {name} = {value!r} arrived as a floating-point number, which may already have lost digits "
                f'above 2^53; pass big integers as strings of digits, e.g. "{int(value)}".'
            )
        value = int(value)
    if isinstance(value, int):
        if abs(value) >= _INTEGER_LIMIT:
            raise ToolError(f"Error: {name} has more than {MAX_INTEGER_DIGITS} digits; that is the most add accepts.")
        return Decimal(value)
    if isinstance(value, str):
        if not re.fullmatch(INTEGER_PATTERN, value):
            raise ToolError(
                f"Error: {name} = {value[:50]!r} is not an integer; use decimal digits with an optional sign, "
                'e.g. "-123456789012345678901234567890".'
            )
        if len(value.lstrip("+-")) > MAX_INTEGER_DIGITS:
            raise ToolError(f"Error: {name} has more than {MAX_INTEGER_DIGITS} digits; that is the most add accepts.")
        return Decimal(value)
    raise ToolError(f"Error: {name} must be an integer or a string of digits.")


def _plain(value: Decimal) -> str:
    """An integral Decimal as digits, with no negative zero."""
    return "0" if value == 0 else str(value)


def add(arguments: dict[str, Any]) -> ToolResult:
    """Sum two integers exactly."""
    a = _integer_operand("a", arguments["a"])
    b = _integer_operand("b", arguments["b"])
    total = _EXACT.add(a, b)
    result, a_text, b_text = _plain(total), _plain(a), _plain(b)
    digits = len(result.lstrip("-"))
    shown_b = f"({b_text})" if b_text.startswith("-") else b_text
    text = f"Result: {result}\n{a_text} + {shown_b} = {result} ({digits} digit{'s' if digits != 1 else ''})"
    return ok(text, {"result": result, "digits": digits, "a": a_text, "b": b_text})


def _integer_argument(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "anyOf": [
            {"type": "integer"},
            {"type": "string", "pattern": INTEGER_PATTERN, "maxLength": MAX_INTEGER_DIGITS + 1},
        ],
    }


ADD = ToolSpec(
    name="add",
    title="Add integers exactly",
    description=f"""\
Add two integers exactly, whatever their size. Use it instead of adding in your head, especially for long \
numbers, where mental arithmetic and floating point both drop digits.

Each operand is a JSON integer or a string of decimal digits with an optional sign (up to \
{MAX_INTEGER_DIGITS} digits). Pass integers beyond 2^53 (9007199254740992) as strings: many clients turn \
large JSON numbers into floats and silently round them. A JSON number with a zero fraction such as 3.0 counts as \
the integer 3 (JSON Schema treats them as equal), but only up to 2^53; other fractions, booleans and strings such \
as "1.5" or "abc" are rejected.

The result is the exact sum as a string of digits (`result`), its number of digits without the sign (`digits`), \
and the operands as read (`a`, `b`).

Example: {{"a": "123456789012345678901234567890", "b": -30}} gives Result: 123456789012345678901234567860.""",
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["a", "b"],
        "properties": {
            "a": _integer_argument("First addend: a JSON integer, or a string of digits with optional sign."),
            "b": _integer_argument("Second addend: a JSON integer, or a string of digits with optional sign."),
        },
    },
    output_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["result", "digits", "a", "b"],
        "properties": {
            "result": {"type": "string", "pattern": INTEGER_PATTERN, "description": "The exact sum a + b."},
            "digits": {"type": "integer", "minimum": 1, "description": "Number of digits of the sum, sign excluded."},
            "a": {"type": "string", "description": "The first operand as read, in canonical decimal form."},
            "b": {"type": "string", "description": "The second operand as read, in canonical decimal form."},
        },
    },
    handler=pure(add),
    icon="add",
    annotations=PURE_COMPUTATION,
)


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


def _precision(value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_PRECISION:
        raise ToolError(f"Error: precision = {value!r} is not allowed; use an integer from 1 to {MAX_PRECISION}.")
    return value


def divide(arguments: dict[str, Any]) -> ToolResult:
    """Divide exactly; report the rounded quotient, the fraction and, for integers, quotient and remainder."""
    a, a_text = _decimal_operand("a", arguments["a"])
    b, b_text = _decimal_operand("b", arguments["b"])
    precision = _precision(arguments.get("precision", DEFAULT_PRECISION))
    if not b:
        raise ToolError("Error: Division by zero is not allowed.")

    context = Context(prec=precision, rounding=ROUND_HALF_EVEN, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[])
    quotient = context.divide(a, b)
    exact = not context.flags[Inexact]
    fraction = Fraction(a) / Fraction(b)
    result = _scientific_or_plain(quotient, precision)
    expansion = _expansion(fraction)
    floor_quotient = remainder = None
    if Fraction(a).denominator == 1 and Fraction(b).denominator == 1:
        whole_a, whole_b = int(a), int(b)
        floor_quotient, remainder = integer_text(whole_a // whole_b), integer_text(whole_a % whole_b)

    lines = [f"Result: {result}", f"Division: {a_text} / {b_text}"]
    if exact:
        lines.append("Exact: yes")
    else:
        lines.append(f"Exact: no (rounded to {precision} significant digits, ties to even)")
    lines.append(f"Fraction: {_fraction_text(fraction)}")
    if expansion is not None:
        lines.append(f"Exact decimal (repeating digits in parentheses): {expansion}")
    if floor_quotient is not None:
        lines.append(f"Floor quotient: {floor_quotient}, remainder: {remainder} (a = b * quotient + remainder)")
    structured = {
        "result": result,
        "exact": exact,
        "precision": precision,
        "fraction": _fraction_text(fraction),
        "exact_decimal": expansion,
        "floor_quotient": floor_quotient,
        "remainder": remainder,
        "a": a_text,
        "b": b_text,
    }
    return ok("\n".join(lines), structured)


def _decimal_argument(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "anyOf": [
            {"type": "number"},
            {"type": "string", "pattern": DECIMAL_PATTERN, "maxLength": MAX_DECIMAL_CHARS},
        ],
    }


DIVIDE = ToolSpec(
    name="divide",
    title="Divide exactly",
    description=f"""\
Divide a by b with exact decimal arithmetic, never binary floating point: 0.3 / 0.1 is exactly 3 and 1 / 3 is \
the fraction 1/3. Use it for any division whose digits matter (money, ratios, unit conversions, checking a \
quotient and remainder).

Operands are JSON numbers or decimal strings such as "0.1", "-3.25e4" or "1e-30" (at most {MAX_DECIMAL_CHARS} \
characters, magnitudes from 1e-{MAX_EXPONENT} to 1e+{MAX_EXPONENT}, or zero). A JSON number is read by its \
shortest decimal form, so 0.1 means exactly one tenth; pass long or precise values as strings. Dividing by zero \
is an error.

Results:
- result: the quotient rounded to `precision` significant digits (default {DEFAULT_PRECISION}, 1 to \
{MAX_PRECISION}), ties rounded to even, trailing zeros removed; plain notation from 1e-6 up to `precision` \
integer digits, otherwise scientific like 1.5e+40.
- exact: whether `result` equals the true quotient (false means it was rounded).
- fraction: the exact quotient as a reduced fraction, "1/3", "-7/2", or "3" when it is an integer.
- exact_decimal: the exact quotient in decimal with the repeating block in parentheses ("0.(3)", "0.1(6)", \
"2.5"), or null when that would exceed {MAX_EXPANSION_CHARS} characters.
- floor_quotient and remainder: only when a and b are both whole numbers (else null), with floor division as in \
Python: quotient = floor(a / b) and remainder = a - b * quotient, which has the sign of b (-7 / 2 gives -4 \
remainder 1; 7 / -2 gives -4 remainder -1).
- a, b: the operands as read.

Example: {{"a": 1, "b": 3}} gives Result: 0.3333333333333333333333333333333333, exact false, fraction "1/3", \
exact_decimal "0.(3)", floor_quotient "0", remainder "1".""",
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["a", "b"],
        "properties": {
            "a": _decimal_argument('Dividend: a JSON number or a decimal string such as "-3.25e4".'),
            "b": _decimal_argument('Divisor, not zero: a JSON number or a decimal string such as "0.1".'),
            "precision": {
                "type": "integer",
                "minimum": 1,
                "maximum": MAX_PRECISION,
                "default": DEFAULT_PRECISION,
                "description": f"Significant digits of `result` (default {DEFAULT_PRECISION}); ties round to even.",
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
            "fraction",
            "exact_decimal",
            "floor_quotient",
            "remainder",
            "a",
            "b",
        ],
        "properties": {
            "result": {"type": "string", "description": "a / b rounded to `precision` significant digits."},
            "exact": {"type": "boolean", "description": "Whether `result` equals the true quotient."},
            "precision": {"type": "integer", "description": "Significant digits used for `result`."},
            "fraction": {
                "type": "string",
                "pattern": r"^-?[0-9]+(?:/[0-9]+)?$",
                "description": "The exact quotient as a reduced fraction, or an integer.",
            },
            "exact_decimal": {
                "type": ["string", "null"],
                "description": "The exact quotient in decimal, repeating block in parentheses; null if too long.",
            },
            "floor_quotient": {
                "type": ["string", "null"],
                "description": "floor(a / b) when both operands are whole numbers, else null.",
            },
            "remainder": {
                "type": ["string", "null"],
                "description": "a - b * floor_quotient (sign of b) when both operands are whole numbers, else null.",
            },
            "a": {"type": "string", "description": "The dividend as read."},
            "b": {"type": "string", "description": "The divisor as read."},
        },
    },
    handler=pure(divide),
    icon="divide",
    annotations=PURE_COMPUTATION,
)
