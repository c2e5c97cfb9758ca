"""What ``add`` and ``divide`` share: their limits, the decimal forms they read, and exact text for big numbers.

Numbers are carried as ``decimal.Decimal`` (exact for every value a decimal string can write) and
``fractions.Fraction``, never as binary floats. A JSON number that arrives as a Python float is read through its
shortest decimal form (``repr``), so ``0.1`` means one tenth. Big integers are turned into text through
``Decimal`` because ``str(int)`` refuses integers longer than ``sys.get_int_max_str_digits()``.
"""

from __future__ import annotations

import re
from decimal import (
    ROUND_HALF_EVEN,
    Context,
    Decimal,
    Inexact,
    InvalidOperation,
)
from fractions import Fraction
from typing import Any

__all__ = [
    "DEFAULT_PRECISION",
    "DEFAULT_ROUNDING",
    "MAX_ADD_CHARS",
    "MAX_DECIMAL_CHARS",
    "MAX_EXPONENT",
    "MAX_INTEGER_DIGITS",
    "MAX_PRECISION",
    "integer_text",
]

MAX_INTEGER_DIGITS = 10_000
"""Most digits ``add`` accepts in one operand, as written out in full (``1e-30`` is 31 digits: ``0.000...1``)."""
MAX_ADD_CHARS = 10_010
"""Longest decimal string ``add`` accepts: the digits plus a sign, a point and an exponent."""
FLOAT_INTEGER_LIMIT = 2**53
"""Above this a JSON number may have been rounded by the sender's float parser, so big integers must be strings."""
DEFAULT_PRECISION = 34
"""Significant digits of ``divide``'s rounded result when the caller names none (IEEE 754 decimal128)."""
MAX_PRECISION = 1_000
"""The largest ``precision`` or ``decimal_places`` a caller may ask ``divide`` for."""
DEFAULT_ROUNDING = "half-even"
"""How ``divide`` rounds when the caller names no mode: ties to even, as IEEE 754 and the ``decimal`` module do."""
MAX_DECIMAL_CHARS = 1_100
"""Longest decimal string ``divide`` accepts as an operand."""
MAX_EXPONENT = 1_000
"""``divide`` operands must lie between 1e-1000 and 1e+1000 in magnitude (or be zero)."""
MAX_EXPANSION_CHARS = 2_000
"""Longest exact decimal expansion ``divide`` writes out; beyond it only the fraction is exact."""

PLAIN_DECIMAL_PATTERN = r"^-?[0-9]+(?:\.[0-9]+)?$"
DECIMAL_PATTERN = r"^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
_DECIMAL = re.compile(DECIMAL_PATTERN)
_INTEGER_LIMIT = 10**MAX_INTEGER_DIGITS
# Exact addition: enough digits that no sum of two accepted operands is ever rounded (one operand's integer
# digits plus the other's fraction digits, and a carry).
_EXACT = Context(prec=2 * MAX_INTEGER_DIGITS + 2, rounding=ROUND_HALF_EVEN, traps=[Inexact, InvalidOperation])


def integer_text(value: int) -> str:
    """An integer in decimal, whatever its size (``str(int)`` has an interpreter-wide digit limit)."""
    return str(Decimal(value))


def _fraction_text(value: Fraction) -> str:
    text = integer_text(value.numerator)
    return text if value.denominator == 1 else f"{text}/{integer_text(value.denominator)}"


def _operand_like(value: Any) -> bool:
    """Whether ``value`` has a type the schema accepts for an operand (the schema reports the others)."""
    return isinstance(value, int | float | str) and not isinstance(value, bool)


def _number_argument(description: str, max_length: int) -> dict[str, Any]:
    # No pattern: the handler's message for a malformed string says more than a regular expression would.
    return {"type": ["number", "string"], "maxLength": max_length, "description": description}
