"""``add``: the exact sum of two integers or decimals of any size (see :mod:`.decimals` for the numbers it reads)."""

from __future__ import annotations

import functools
import math
import re
from decimal import (
    Decimal,
)
from typing import Any

from sandbox_server.errors import ToolError
from sandbox_server.registry import PURE_COMPUTATION, ToolSpec, pure
from sandbox_server.results import ToolResult, ok
from sandbox_server.tools.checks import problems, refuse
from sandbox_server.tools.decimals import (
    _DECIMAL,
    _EXACT,
    _INTEGER_LIMIT,
    FLOAT_INTEGER_LIMIT,
    MAX_ADD_CHARS,
    MAX_INTEGER_DIGITS,
    PLAIN_DECIMAL_PATTERN,
    _number_argument,
    _operand_like,
)

__all__ = ["ADD", "MAX_ADD_CHARS", "MAX_INTEGER_DIGITS", "add"]


# --- add ---------------------------------------------------------------------------------------------------------


def _addend(name: str, value: Any) -> Decimal:
    """Read one ``add`` operand exactly: an integer or a decimal, at most ``MAX_INTEGER_DIGITS`` digits written out."""
    if isinstance(value, bool):
        raise ToolError(f"Error: {name} must be a number or a decimal string, not the boolean {value!r}.")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ToolError(f"Error: {name} = {value!r} is not a finite number.")
        if value.is_integer() and abs(value) > FLOAT_INTEGER_LIMIT:
            raise ToolError(
                f"Error: {name} = {value!r} arrived as a floating-point number, which may already have lost digits "
                f'above 2^53; pass big numbers as strings of digits, e.g. "{int(value)}".'
            )
        # 3.0 is the integer 3 (JSON Schema treats them as equal); other floats by their shortest decimal form.
        value = int(value) if value.is_integer() else repr(value)
    if isinstance(value, int):
        if abs(value) >= _INTEGER_LIMIT:
            raise ToolError(f"Error: {name} has more than {MAX_INTEGER_DIGITS} digits; that is the most add accepts.")
        return Decimal(value)
    if not isinstance(value, str):
        raise ToolError(f"Error: {name} must be a number or a decimal string.")
    shown = value if len(value) <= 60 else value[:57] + "..."
    if _DECIMAL.fullmatch(value) is None:
        raise ToolError(
            f"Error: {name} = {shown!r} is not a decimal number; write digits with an optional sign, decimal point "
            'and exponent, e.g. "-12.50", "1e-30" or "123456789012345678901234567890".'
        )
    exponent = re.search(r"[eE]([+-]?[0-9]+)$", value)
    # An exponent of six or more digits writes out more digits than add accepts, unless the number is zero;
    # checking it first avoids building a number with a billion zeros.
    if exponent is not None and len(exponent.group(1).lstrip("+-").lstrip("0")) > 5:
        mantissa = value[: exponent.start()]
        if re.search(r"[1-9]", mantissa):
            raise ToolError(_too_long(name))
        return Decimal(0)
    number = Decimal(value)
    if _written_digits(number) > MAX_INTEGER_DIGITS:
        raise ToolError(_too_long(name))
    return number


def _too_long(name: str) -> str:
    return (
        f"Error: {name} has more than {MAX_INTEGER_DIGITS} digits when written out in full; that is the most add "
        "accepts."
    )


def _written_digits(number: Decimal) -> int:
    """Digits of the plain (non-scientific) form, counting a leading ``0`` before the point."""
    _, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int)
    if exponent >= 0:
        return len(digits) + exponent
    return max(len(digits), -exponent + 1)


def _plain(value: Decimal) -> str:
    """A Decimal written out in full, never in scientific notation, with no negative zero."""
    text = f"{value:f}"
    return text[1:] if text.startswith("-") and not value else text


def _add_checks(arguments: dict[str, Any]) -> list[str]:
    return problems(
        functools.partial(_addend, name, arguments[name]) for name in ("a", "b") if _operand_like(arguments.get(name))
    )


def add(arguments: dict[str, Any]) -> ToolResult:
    """Sum two integers or decimals exactly."""
    refuse(_add_checks(arguments))
    a = _addend("a", arguments["a"])
    b = _addend("b", arguments["b"])
    total = _EXACT.add(a, b)
    result, a_text, b_text = _plain(total), _plain(a), _plain(b)
    digits = sum(character.isdigit() for character in result)
    shown_b = f"({b_text})" if b_text.startswith("-") else b_text
    text = f"Result: {result}\n{a_text} + {shown_b} = {result} ({digits} digit{'s' if digits != 1 else ''})"
    return ok(text, {"result": result, "digits": digits, "a": a_text, "b": b_text})


ADD = ToolSpec(
    name="add",
    title="Add numbers exactly",
    instruction="sum of two integers of any size (pass big integers as strings of digits).",
    description=f"""\
Add two integers or decimals exactly, whatever their size, never through binary floating point (0.1 + 0.2 is \
0.3). Use it for any sum whose digits matter: money, long numbers, totals to check.

Operands: JSON numbers or decimal strings ("-12.50", "1e-30"), up to {MAX_INTEGER_DIGITS} digits written out. \
Pass integers beyond 2^53 and precise decimals as strings: clients may round big JSON numbers. The sum keeps \
the operands' decimal places (12.50 + 0.5 = 13.00).

Example: {{"a": "123456789012345678901234567890", "b": -30}} gives Result: 123456789012345678901234567860.""",
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["a", "b"],
        "properties": {
            "a": _number_argument("First addend.", MAX_ADD_CHARS),
            "b": _number_argument("Second addend.", MAX_ADD_CHARS),
        },
    },
    output_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["result", "digits", "a", "b"],
        "properties": {
            "result": {
                "type": "string",
                "pattern": PLAIN_DECIMAL_PATTERN,
                "description": "The exact sum a + b, written out in full (no exponent).",
            },
            "digits": {
                "type": "integer",
                "minimum": 1,
                "description": "Number of digits written in `result`, sign and decimal point excluded.",
            },
            "a": {"type": "string", "description": "The first operand as read, written out in full."},
            "b": {"type": "string", "description": "The second operand as read, written out in full."},
        },
    },
    handler=pure(add),
    icon="add",
    annotations=PURE_COMPUTATION,
    check=_add_checks,
)
