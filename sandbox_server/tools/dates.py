"""The ``date_diff`` tool: calendar and elapsed difference between two dates or two date-times.

Time zones come from ``zoneinfo`` (with the ``tzdata`` package as the database where the system has none).
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
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sandbox_server.errors import ToolError
from sandbox_server.registry import PURE_COMPUTATION, ToolSpec, pure
from sandbox_server.results import ToolResult, ok

__all__ = ["DATE_DIFF", "DEFAULT_ZONE", "date_diff"]

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


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ToolError(
            f"Error: timezone = {name!r} is not a known IANA time zone; use a name such as 'UTC', 'Europe/Paris' "
            "or 'America/New_York'."
        ) from None


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


def _plural(count: int | float, unit: str) -> str:
    return f"{count} {unit}" if abs(count) == 1 else f"{count} {unit}s"


def date_diff(arguments: dict[str, Any]) -> ToolResult:
    """Difference end - start as a calendar breakdown and as exact elapsed time."""
    start_text, end_text = arguments["start"], arguments["end"]
    zone = _zone(arguments.get("timezone", DEFAULT_ZONE))
    start_point, end_point = _parse("start", start_text), _parse("end", end_text)
    if start_point.is_date != end_point.is_date:
        date_name, time_name = ("start", "end") if start_point.is_date else ("end", "start")
        raise ToolError(
            f"Error: {date_name} is a date but {time_name} is a date-time; give both as dates (2024-03-10) or both as "
            "date-times (2024-03-10T00:00:00 for midnight)."
        )
    is_date = start_point.is_date
    calendar_zone: tzinfo = UTC if is_date else zone
    try:
        start = _instant("start", start_text, start_point, zone) if not is_date else _resolve(start_point.local, UTC)
        end = _instant("end", end_text, end_point, zone) if not is_date else _resolve(end_point.local, UTC)
        start_local = start.astimezone(calendar_zone)
        end_local = end.astimezone(calendar_zone)
        sign = 1 if end >= start else -1
        earlier, later = (start, end) if sign > 0 else (end, start)
        earlier_local = (start_local if sign > 0 else end_local).replace(tzinfo=None)
        span = _span(earlier_local, earlier, later, calendar_zone)
    except OverflowError:
        raise ToolError(
            f"Error: {start_text!r} or {end_text!r} falls outside the years 1 to 9999 in {zone.key}."
        ) from None

    seconds_exact = Fraction(span.remainder // timedelta(microseconds=1), 10**6)
    elapsed = Fraction((later - earlier) // timedelta(microseconds=1), 10**6)
    weeks, remaining_days = divmod(span.total_days, 7)
    business = _business_days(earlier_local.date(), (end_local if sign > 0 else start_local).date())
    breakdown = {
        "years": span.months // 12,
        "months": span.months % 12,
        "days": span.days,
        "hours": int(seconds_exact // 3600),
        "minutes": int(seconds_exact % 3600 // 60),
        "seconds": _number(seconds_exact % 60),
    }
    totals = {
        "total_days": span.total_days,
        "weeks": weeks,
        "remaining_days": remaining_days,
        "total_hours": _number(elapsed / 3600),
        "total_seconds": _number(elapsed),
        "business_days": business,
    }
    signed = {key: sign * value if value else 0 for key, value in {**breakdown, **totals}.items()}
    echo = {
        "start": start_local.date().isoformat() if is_date else start_local.isoformat(),
        "end": end_local.date().isoformat() if is_date else end_local.isoformat(),
    }
    structured = {
        "kind": "date" if is_date else "date-time",
        **echo,
        "timezone": zone.key,
        **signed,
        "start_weekday": WEEKDAYS[start_local.weekday()],
        "end_weekday": WEEKDAYS[end_local.weekday()],
    }
    return ok(_text(structured, breakdown, sign), structured)


def _text(structured: dict[str, Any], breakdown: dict[str, Any], sign: int) -> str:
    parts = [_plural(value, unit[:-1]) for unit, value in breakdown.items() if value]
    amount = ", ".join(parts) if parts else ("0 days" if structured["kind"] == "date" else "0 seconds")
    if sign < 0:
        result = f"Result: -({amount}); end is before start"
    else:
        result = f"Result: {amount}" + ("; start and end are the same" if not parts else "")
    zone_note = "" if structured["kind"] == "date" else f" (calendar of {structured['timezone']})"
    lines = [
        result,
        f"From {structured['start_weekday']} {structured['start']} to {structured['end_weekday']} "
        f"{structured['end']}{zone_note}",
        f"Total days: {structured['total_days']} = {_plural(structured['weeks'], 'week')} and "
        f"{_plural(structured['remaining_days'], 'day')}",
        f"Elapsed: {_plural(structured['total_hours'], 'hour')} = {_plural(structured['total_seconds'], 'second')}",
        f"Business days (Monday to Friday, start included, end excluded): {structured['business_days']}",
    ]
    return "\n".join(lines)


def _endpoint_schema(description: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": MAX_TEXT, "description": description}


_INTEGER = {"type": "integer"}

DATE_DIFF = ToolSpec(
    name="date_diff",
    title="Difference between dates",
    description=f"""\
Compute end - start between two dates or two date-times: years, months and days on the calendar, total days and \
weeks, exact elapsed hours and seconds (correct across daylight-saving changes), business days and weekdays. Use \
it instead of counting days in your head (ages, deadlines, durations, "how long until").

Inputs: start and end are ISO 8601: {ACCEPTED_FORMATS}. Both must be dates or both date-times (for midnight \
write T00:00:00). A date-time without an offset is a local time in `timezone` (an IANA name, default \
{DEFAULT_ZONE}); one with an offset is converted into `timezone`, whose calendar is then used to count days and \
name weekdays. A local time that the zone skips (in a spring-forward gap) is an error; one that occurs twice (in \
a fall-back overlap) means the first occurrence - write an offset to choose. Two dates ignore `timezone` and \
count whole days of 24 hours.

Semantics (all numbers are negative when end is before start: the difference is measured from the earlier \
endpoint and negated, so swapping the endpoints only flips the signs):
- years, months, days, hours, minutes, seconds: whole months are counted from the earlier endpoint as far as \
they fit, a day that the target month lacks becoming its last day (2024-01-31 to 2024-02-29 is 1 month; \
2024-01-31 to 2024-03-01 is 1 month 1 day; 2024-02-29 to 2025-02-28 is 1 year), then whole calendar days, \
then the exact remaining time.
- total_days: whole calendar days (a 23-hour daylight-saving day counts as one); weeks and remaining_days \
split it.
- total_seconds, total_hours: exact elapsed time (2024-03-10 in America/New_York lasts 23 hours).
- business_days: Mondays to Fridays from start (included) to end (excluded); holidays are not known.
- start, end: the endpoints as read, in `timezone` for date-times; start_weekday, end_weekday: their weekdays.

Example: {{"start": "2024-01-15", "end": "2024-03-01"}} gives Result: 1 month, 15 days, with total_days 46, \
weeks 6, remaining_days 4, business_days 34.""",
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["start", "end"],
        "properties": {
            "start": _endpoint_schema("Start: 2024-02-29, 2024-03-10T01:30:00, 2024-03-10T01:30:00-05:00 or ...Z."),
            "end": _endpoint_schema("End, in the same form as start (both dates or both date-times)."),
            "timezone": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_TEXT,
                "default": DEFAULT_ZONE,
                "description": "IANA time zone such as America/New_York for date-times without an offset and for "
                f"counting calendar days; default {DEFAULT_ZONE}.",
            },
        },
    },
    output_schema={
        "type": "object",
        "additionalProperties": False,
        "required": [
            "kind",
            "start",
            "end",
            "timezone",
            "years",
            "months",
            "days",
            "hours",
            "minutes",
            "seconds",
            "total_days",
            "weeks",
            "remaining_days",
            "total_hours",
            "total_seconds",
            "business_days",
            "start_weekday",
            "end_weekday",
        ],
        "properties": {
            "kind": {"enum": ["date", "date-time"], "description": "Whether two dates or two date-times were given."},
            "start": {"type": "string", "description": "Start as read (ISO 8601, in `timezone` for date-times)."},
            "end": {"type": "string", "description": "End as read (ISO 8601, in `timezone` for date-times)."},
            "timezone": {"type": "string", "description": "Zone of local times and calendar days (unused for dates)."},
            "years": {**_INTEGER, "description": "Whole years of the calendar breakdown."},
            "months": {**_INTEGER, "description": "Whole months after the years (-11 to 11)."},
            "days": {**_INTEGER, "description": "Whole days after the months."},
            "hours": {**_INTEGER, "description": "Whole hours after the days."},
            "minutes": {**_INTEGER, "description": "Whole minutes after the hours."},
            "seconds": {"type": "number", "description": "Seconds after the minutes, with any fraction."},
            "total_days": {**_INTEGER, "description": "Whole calendar days between the endpoints."},
            "weeks": {**_INTEGER, "description": "Whole weeks in total_days."},
            "remaining_days": {**_INTEGER, "description": "total_days minus 7 * weeks."},
            "total_hours": {"type": "number", "description": "Exact elapsed hours."},
            "total_seconds": {"type": "number", "description": "Exact elapsed seconds."},
            "business_days": {**_INTEGER, "description": "Mondays to Fridays from start (included) to end (excluded)."},
            "start_weekday": {"enum": list(WEEKDAYS), "description": "Weekday of start."},
            "end_weekday": {"enum": list(WEEKDAYS), "description": "Weekday of end."},
        },
    },
    handler=pure(date_diff),
    icon="date_diff",
    annotations=PURE_COMPUTATION,
)
