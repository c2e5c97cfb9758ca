"""The ``date_diff`` tool: calendar and elapsed difference between two dates or two date-times, in words and as
structured data (the dates themselves are read and counted in :mod:`.dates`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import UTC, timedelta, tzinfo
from fractions import Fraction
from typing import Any

from sandbox_server.errors import ToolError
from sandbox_server.registry import PURE_COMPUTATION, ToolSpec, pure
from sandbox_server.results import ToolResult, ok
from sandbox_server.tools.checks import problems, refuse
from sandbox_server.tools.dates import (
    DEFAULT_ZONE,
    MAX_TEXT,
    WEEKDAYS,
    _business_days,
    _exact_seconds,
    _instant,
    _number,
    _parse,
    _plural,
    _resolve,
    _span,
    _zone,
)
from sandbox_server.tools.public_holidays import (
    MAX_HOLIDAY_YEARS,
    SkippedHolidays,
    holiday_calendar,
    weekday_holidays,
)

__all__ = ["DATE_DIFF", "date_diff"]


def _same_kind(start: Any, end: Any) -> None:
    start_point, end_point = _parse("start", start), _parse("end", end)
    if start_point.is_date != end_point.is_date:
        date_name, time_name = ("start", "end") if start_point.is_date else ("end", "start")
        raise ToolError(
            f"Error: {date_name} is a date but {time_name} is a date-time; give both as dates (2024-03-10) or both as "
            "date-times (2024-03-10T00:00:00 for midnight)."
        )


def _date_diff_checks(arguments: dict[str, Any]) -> list[str]:
    start, end, zone = arguments.get("start"), arguments.get("end"), arguments.get("timezone")
    checks: list[Callable[[], object]] = []
    if isinstance(zone, str):
        checks.append(functools.partial(_zone, zone))
    if isinstance(start, str):
        checks.append(functools.partial(_parse, "start", start))
    if isinstance(end, str):
        checks.append(functools.partial(_parse, "end", end))
    found = problems(checks)
    if not found and isinstance(start, str) and isinstance(end, str):
        found = problems([functools.partial(_same_kind, start, end)])
    holidays = arguments.get("holidays")
    if isinstance(holidays, dict) and isinstance(holidays.get("country"), str):
        found += problems([functools.partial(holiday_calendar, holidays)])
    return found


def date_diff(arguments: dict[str, Any]) -> ToolResult:
    """Difference end - start as a calendar breakdown and as exact elapsed time."""
    refuse(_date_diff_checks(arguments))
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
    elapsed_microseconds = (later - earlier) // timedelta(microseconds=1)
    elapsed = Fraction(elapsed_microseconds, 10**6)
    weeks, remaining_days = divmod(span.total_days, 7)
    first_day, last_day = earlier_local.date(), (end_local if sign > 0 else start_local).date()
    business = _business_days(first_day, last_day)
    skipped: SkippedHolidays | None = None
    if arguments.get("holidays") is not None:
        skipped = weekday_holidays(arguments["holidays"], first_day, last_day)
        business -= len(skipped.days)
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
        "business_days": business,
    }
    signed: dict[str, Any] = {key: sign * value if value else 0 for key, value in {**breakdown, **totals}.items()}
    signed["total_seconds"] = _exact_seconds(sign * elapsed_microseconds)
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
        "holidays": None if skipped is None else _holidays_facts(skipped),
    }
    return ok(_text(structured, breakdown, sign), structured)


def _holidays_facts(skipped: SkippedHolidays) -> dict[str, Any]:
    return {
        "country": skipped.country,
        "subdivision": skipped.subdivision,
        "skipped": [{"date": day.isoformat(), "name": name} for day, name in skipped.days],
        "note": skipped.note,
    }


def _hours_text(hours: int | float, seconds: str) -> str:
    """Elapsed hours as stated in ``total_hours``, marked as approximate when that number is not exact."""
    if Fraction(hours) == Fraction(seconds) / 3600:
        return _plural(hours, "hour")
    return f"about {hours} hours"


def _holidays_lines(facts: dict[str, Any] | None) -> list[str]:
    if facts is None:
        return []
    where = facts["country"] + (f"-{facts['subdivision']}" if facts["subdivision"] else "")
    days = "; ".join(f"{day['date']} {day['name']}" for day in facts["skipped"]) or "none"
    lines = [f"Public holidays of {where} skipped (Monday to Friday): {days}"]
    if facts["note"]:
        lines.append(f"Note from the holiday calendar: {facts['note']}")
    return lines


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
        f"Elapsed: {_hours_text(structured['total_hours'], structured['total_seconds'])} = "
        f"{structured['total_seconds']} second{'' if structured['total_seconds'] in ('1', '-1') else 's'}",
        f"Business days (Monday to Friday, start included, end excluded): {structured['business_days']}"
        + (" (public holidays ignored)" if structured["holidays"] is None else ", public holidays excluded"),
        *_holidays_lines(structured["holidays"]),
    ]
    return "\n".join(lines)


def _text_schema(description: str) -> dict[str, Any]:
    return {"type": "string", "maxLength": MAX_TEXT, "description": description}


_INTEGER = {"type": "integer"}
_CODE = {"type": "string", "maxLength": 20}

DATE_DIFF = ToolSpec(
    name="date_diff",
    title="Difference between dates",
    instruction="calendar and elapsed difference between two dates or date-times, with business days and time zones.",
    description=f"""\
Compute end - start between two dates or date-times: calendar years, months and days, total days and weeks, \
exact elapsed seconds across daylight-saving changes, business days. Use it instead of counting days yourself \
(ages, deadlines, durations).

Both endpoints are dates (YYYY-MM-DD) or both date-times (YYYY-MM-DDTHH:MM[:SS[.ffffff]], optional Z or \
+05:30), years 1 to 9999. Local times are in `timezone`; one skipped by DST is an error, a repeated one means \
the first. Months count from the earlier endpoint, clamped to month ends (01-31 to 02-29 is 1 month). Negative \
when end is before start. Business days are Monday to Friday, end excluded, public holidays only with \
`holidays` (spans under {MAX_HOLIDAY_YEARS} years).

Example: {{"start": "2024-12-20", "end": "2025-01-10", "holidays": {{"country": "DE"}}}} gives Result: 21 days, \
business_days 12 (3 holidays skipped).""",
    input_schema={
        "type": "object",
        "additionalProperties": False,
        "required": ["start", "end"],
        "properties": {
            "start": _text_schema("e.g. 2024-02-29 or 2024-03-10T01:30:00-05:00"),
            "end": _text_schema("Same form as start."),
            "timezone": {**_text_schema("IANA zone, e.g. America/New_York."), "default": DEFAULT_ZONE},
            "holidays": {
                "type": "object",
                "additionalProperties": False,
                "required": ["country"],
                "properties": {
                    "country": {**_CODE, "description": "e.g. US, DE"},
                    "subdivision": {**_CODE, "description": "e.g. BY"},
                },
                "description": "Skip this calendar's public holidays in business_days, e.g. {country: DE, "
                "subdivision: BY}.",
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
            "holidays",
        ],
        "properties": {
            "kind": {"enum": ["date", "date-time"], "description": "Whether two dates or two date-times were given."},
            "start": {"type": "string", "description": "Start as read (ISO 8601, in `timezone` for date-times)."},
            "end": {"type": "string", "description": "End as read (ISO 8601, in `timezone` for date-times)."},
            "timezone": {"type": "string", "description": "Zone of local times and calendar days (unused for dates)."},
            "years": {
                **_INTEGER,
                "description": "Whole years of the calendar breakdown: whole months are counted from the earlier "
                "endpoint as far as they fit, a day the target month lacks becoming its last day (2024-01-31 to "
                "2024-03-01 is 1 month 1 day), then whole days, then the exact rest. Every number is negated when "
                "end is before start.",
            },
            "months": {**_INTEGER, "description": "Whole months after the years (-11 to 11)."},
            "days": {**_INTEGER, "description": "Whole days after the months."},
            "hours": {**_INTEGER, "description": "Whole hours after the days."},
            "minutes": {**_INTEGER, "description": "Whole minutes after the hours."},
            "seconds": {"type": "number", "description": "Seconds after the minutes, with any fraction (6 digits)."},
            "total_days": {
                **_INTEGER,
                "description": "Whole calendar days between the endpoints (a 23-hour daylight-saving day is one).",
            },
            "weeks": {**_INTEGER, "description": "Whole weeks in total_days."},
            "remaining_days": {**_INTEGER, "description": "total_days minus 7 * weeks."},
            "total_hours": {
                "type": "number",
                "description": "Elapsed hours, total_seconds / 3600; a fraction of an hour is rounded to a "
                "binary floating-point number.",
            },
            "total_seconds": {
                "type": "string",
                "pattern": r"^-?[0-9]+(?:\.[0-9]{1,6})?$",
                "description": "Exact elapsed seconds as a decimal string (up to 6 digits after the point), across "
                "daylight-saving changes: 2024-03-10 in America/New_York lasts 82800.",
            },
            "business_days": {
                **_INTEGER,
                "description": "Mondays to Fridays from start (included) to end (excluded), minus the public "
                "holidays listed in `holidays` when that argument was given; otherwise holidays are not known.",
            },
            "start_weekday": {"enum": list(WEEKDAYS), "description": "Weekday of start."},
            "end_weekday": {"enum": list(WEEKDAYS), "description": "Weekday of end."},
            "holidays": {
                "type": ["object", "null"],
                "description": "null unless the holidays argument was given; then the calendar used and the public "
                "holidays on Mondays to Fridays it removed from business_days.",
                "additionalProperties": False,
                "required": ["country", "subdivision", "skipped", "note"],
                "properties": {
                    "country": {"type": "string", "description": "ISO 3166-1 alpha-2 code of the calendar."},
                    "subdivision": {"type": ["string", "null"], "description": "Its subdivision, if one was named."},
                    "skipped": {
                        "type": "array",
                        "description": "The holidays removed, in date order.",
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["date", "name"],
                            "properties": {
                                "date": {"type": "string", "description": "YYYY-MM-DD."},
                                "name": {"type": "string", "description": "The holiday's name."},
                            },
                        },
                    },
                    "note": {
                        "type": ["string", "null"],
                        "description": "A limit the holiday data states, such as the years it covers.",
                    },
                },
            },
        },
    },
    handler=pure(date_diff),
    check=_date_diff_checks,
    icon="date_diff",
    annotations=PURE_COMPUTATION,
)
