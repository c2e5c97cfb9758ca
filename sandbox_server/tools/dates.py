"""Dates, date-times and time zones as ``date_diff`` reads and counts them.

Time zones come from the ``tzdata`` package, read through ``zoneinfo``: a zone name is accepted only if that
database lists it, and its rules are loaded from the package itself, never from the host's files (names such as
``localtime`` or a directory like ``America`` would otherwise read the host's configuration or fail).
Python compares and subtracts two datetimes that share a ``tzinfo`` by wall clock, ignoring DST; so every
elapsed-time computation here goes through UTC instants, and local wall-clock values are only used for counting
calendar days and months.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from fractions import Fraction
from functools import cache
from importlib import resources
from zoneinfo import ZoneInfo

from sandbox_server.errors import ToolError

__all__ = ["ACCEPTED_FORMATS", "DEFAULT_ZONE", "MAX_TEXT", "Endpoint", "known_zones"]

DEFAULT_ZONE = "UTC"
"""Zone in which ``date_diff`` reads date-times without an offset and counts calendar days, unless told."""
MAX_TEXT = 64
"""Longest accepted endpoint or zone name; ISO 8601 date-times are far shorter."""

ACCEPTED_FORMATS = (
    "YYYY-MM-DD for a date, or YYYY-MM-DDTHH:MM[:SS[.ffffff]] for a date-time, optionally followed by Z or an "
    "offset such as +05:30"
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# [0-9], not \d: int() would also accept digits of other scripts.
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,6}))?)?"
    r"(?P<offset>[Zz]|[+-][0-9]{2}:?[0-9]{2})?"
)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One parsed endpoint: a naive date-time (midnight for a date) and its UTC offset if one was written."""

    local: datetime
    offset: timezone | None
    is_date: bool


def _parse(name: str, text: str) -> Endpoint:
    """Read an ISO 8601 date or date-time, quoting the value and the accepted formats on failure."""
    try:
        if match := _DATE.fullmatch(text):
            year, month, day = map(int, match.groups())
            return Endpoint(datetime(year, month, day), None, is_date=True)
        if match := _DATE_TIME.fullmatch(text):
            year, month, day, hour, minute = map(int, match.groups()[:5])
            second = int(match.group(6) or 0)
            microsecond = int((match.group(7) or "0").ljust(6, "0"))
            local = datetime(year, month, day, hour, minute, second, microsecond)
            return Endpoint(local, _offset(match.group("offset")), is_date=False)
    except ValueError as exc:
        raise ToolError(
            f"Error: {name} = {text!r} is not a valid date or time ({exc}). Accepted: {ACCEPTED_FORMATS}."
        ) from None
    raise ToolError(f"Error: {name} = {text!r} is not an ISO 8601 date or date-time. Accepted: {ACCEPTED_FORMATS}.")


def _offset(text: str | None) -> timezone | None:
    if text is None:
        return None
    if text in ("Z", "z"):
        return UTC
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours >= 24 or minutes >= 60:
        raise ValueError(f"the offset {text} must be less than 24 hours, with minutes below 60")
    delta = timedelta(hours=hours, minutes=minutes)
    return timezone(-delta if text[0] == "-" else delta)


@cache
def known_zones() -> frozenset[str]:
    """The IANA zone names the bundled ``tzdata`` database lists."""
    return frozenset(resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8").split())


@cache
def _load_zone(name: str) -> ZoneInfo:
    with resources.files("tzdata.zoneinfo").joinpath(*name.split("/")).open("rb") as file:
        return ZoneInfo.from_file(file, key=name)


def _zone(name: str) -> ZoneInfo:
    if name not in known_zones():
        raise ToolError(
            f"Error: timezone = {name!r} is not a known IANA time zone; use a name such as 'UTC', 'Europe/Paris' "
            "or 'America/New_York'."
        )
    return _load_zone(name)


def _resolve(local: datetime, zone: tzinfo) -> datetime:
    """The UTC instant of a wall-clock time: a skipped time moves forward by the gap, a repeated one is the first."""
    return local.replace(tzinfo=zone, fold=0).astimezone(UTC)


def _instant(name: str, text: str, endpoint: Endpoint, zone: ZoneInfo) -> datetime:
    """The endpoint as a UTC instant; a local time that the zone skips is an error."""
    if endpoint.offset is not None:
        return endpoint.local.replace(tzinfo=endpoint.offset).astimezone(UTC)
    instant = _resolve(endpoint.local, zone)
    if instant.astimezone(zone).replace(tzinfo=None) != endpoint.local:
        before = endpoint.local.replace(tzinfo=zone, fold=0).strftime("%z")
        after = endpoint.local.replace(tzinfo=zone, fold=1).strftime("%z")
        raise ToolError(
            f"Error: {name} = {text!r} does not exist in {zone.key}: clocks skip that local time (the UTC offset "
            f"changes from {before[:3]}:{before[3:]} to {after[:3]}:{after[3:]}). Give a time outside the gap, or "
            f"write the offset you mean, e.g. {endpoint.local.isoformat()}{before[:3]}:{before[3:]}."
        )
    return instant


def _add_months(local: datetime, months: int) -> datetime:
    """Step by whole calendar months, clamping the day to the last day of a shorter month."""
    year, month_index = divmod(local.month - 1 + months, 12)
    year += local.year
    day = min(local.day, calendar.monthrange(year, month_index + 1)[1])
    return local.replace(year=year, month=month_index + 1, day=day)


@dataclass(frozen=True, slots=True)
class Span:
    """A non-negative difference between an earlier and a later instant, counted in one zone's calendar."""

    months: int
    days: int
    remainder: timedelta
    total_days: int


def _span(start_local: datetime, start: datetime, end: datetime, zone: tzinfo) -> Span:
    """Count whole months, then whole days, from ``start`` without passing ``end``, then the exact rest."""

    def reached(months: int, days: int) -> datetime:
        if months == days == 0:
            return start
        return _resolve(_add_months(start_local, months) + timedelta(days=days), zone)

    def fits(months: int, days: int) -> bool:
        try:
            return reached(months, days) <= end
        except (OverflowError, ValueError):  # past the year 9999, so certainly past ``end``
            return False

    def most(estimate: int, fits_count: Callable[[int], bool]) -> int:
        # The estimate from local dates is right or off by one; a DST shift near an endpoint can move it either way.
        count = max(estimate, 0)
        while count > 0 and not fits_count(count):
            count -= 1
        while fits_count(count + 1):
            count += 1
        return count

    end_local = end.astimezone(zone).replace(tzinfo=None)
    months = most((end_local.year - start_local.year) * 12 + end_local.month - start_local.month, lambda n: fits(n, 0))
    anchor = _add_months(start_local, months)
    days = most((end_local.date() - anchor.date()).days, lambda n: fits(months, n))
    total_days = most((end_local.date() - start_local.date()).days, lambda n: fits(0, n))
    return Span(months, days, end - reached(months, days), total_days)


def _business_days(first: date, last: date) -> int:
    """Monday to Friday from ``first`` (included) to ``last`` (excluded), ``first <= last``."""
    weeks, extra = divmod((last - first).days, 7)
    start = first.weekday()
    return weeks * 5 + sum(1 for offset in range(extra) if (start + offset) % 7 < 5)


def _number(value: Fraction) -> int | float:
    return value.numerator if value.denominator == 1 else float(value)


def _exact_seconds(microseconds: int) -> str:
    """Whole microseconds as exact decimal seconds: ``-1500000`` is ``"-1.5"``, ``3600000000`` is ``"3600"``."""
    whole, fraction = divmod(abs(microseconds), 10**6)
    text = f"{whole}.{fraction:06d}".rstrip("0").rstrip(".")
    return f"-{text}" if microseconds < 0 else text


def _plural(count: int | float, unit: str) -> str:
    return f"{count} {unit}" if abs(count) == 1 else f"{count} {unit}s"
