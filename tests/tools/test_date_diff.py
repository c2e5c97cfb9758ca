"""``date_diff``: calendar breakdown, whole days, exact elapsed time and business days between two endpoints."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from dateutil.relativedelta import relativedelta
from hypothesis import assume, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sandbox_server.errors import ToolError
from sandbox_server.tools.date_diff import DATE_DIFF, date_diff

from .calling import Call

SCHEMA = Draft202012Validator(DATE_DIFF.input_schema)
NEW_YORK = "America/New_York"


def diff(start: str, end: str, timezone: str | None = None) -> dict[str, Any]:
    arguments = {"start": start, "end": end} | ({"timezone": timezone} if timezone else {})
    result = date_diff(arguments)
    assert result.structured is not None
    Draft202012Validator(DATE_DIFF.output_schema).validate(result.structured)
    return result.structured


@pytest.mark.parametrize(
    ("start", "end", "years", "months", "days", "total_days"),
    [
        pytest.param("2024-01-15", "2024-03-01", 0, 1, 15, 46, id="across-leap-february"),
        pytest.param("2023-01-15", "2023-03-01", 0, 1, 14, 45, id="across-common-february"),
        pytest.param("2024-01-31", "2024-02-29", 0, 1, 0, 29, id="month-end-to-leap-day-is-one-month"),
        pytest.param("2023-01-31", "2023-02-28", 0, 1, 0, 28, id="month-end-to-short-month-end-is-one-month"),
        pytest.param("2024-01-30", "2024-02-29", 0, 1, 0, 30, id="thirtieth-to-leap-day-is-one-month"),
        pytest.param("2024-01-31", "2024-03-01", 0, 1, 1, 30, id="month-end-plus-a-day"),
        pytest.param("2024-01-31", "2024-03-30", 0, 1, 30, 59, id="clamped-month-then-days"),
        pytest.param("2024-01-31", "2024-03-31", 0, 2, 0, 60, id="two-month-ends"),
        pytest.param("2024-02-29", "2025-02-28", 1, 0, 0, 365, id="leap-day-birthday-in-a-common-year"),
        pytest.param("2024-02-29", "2028-02-29", 4, 0, 0, 1461, id="leap-day-to-leap-day"),
        pytest.param("2023-02-28", "2024-02-28", 1, 0, 0, 365, id="year-over-leap-february"),
        pytest.param("2023-12-31", "2024-01-01", 0, 0, 1, 1, id="year-boundary"),
        pytest.param("2000-01-01", "2024-07-04", 24, 6, 3, 8951, id="decades"),
        pytest.param("2024-03-10", "2024-03-10", 0, 0, 0, 0, id="same-day"),
        pytest.param("0001-01-01", "9999-12-31", 9998, 11, 30, 3652058, id="whole-range"),
    ],
)
@pytest.mark.anyio
async def test_two_dates_give_the_calendar_breakdown_and_total_days(
    call: Call, start: str, end: str, years: int, months: int, days: int, total_days: int
) -> None:
    result = await call(DATE_DIFF, {"start": start, "end": end})
    facts = result.structured
    assert facts is not None
    assert (facts["years"], facts["months"], facts["days"]) == (years, months, days)
    assert (facts["hours"], facts["minutes"], facts["seconds"]) == (0, 0, 0)
    assert facts["total_days"] == total_days
    assert divmod(total_days, 7) == (facts["weeks"], facts["remaining_days"])
    assert facts["total_seconds"] == str(total_days * 86_400)
    assert facts["total_hours"] == total_days * 24
    assert (facts["kind"], facts["start"], facts["end"]) == ("date", start, end)


def test_the_text_starts_with_the_breakdown_and_states_the_other_facts() -> None:
    result = date_diff({"start": "2024-01-15", "end": "2024-03-01"})
    assert result.text == (
        "Result: 1 month, 15 days\n"
        "From Monday 2024-01-15 to Friday 2024-03-01\n"
        "Total days: 46 = 6 weeks and 4 days\n"
        "Elapsed: 1104 hours = 3974400 seconds\n"
        "Business days (Monday to Friday, start included, end excluded): 34 (public holidays ignored)"
    )


def test_end_before_start_negates_every_number_and_says_so() -> None:
    forward, backward = diff("2024-01-15", "2024-03-01"), diff("2024-03-01", "2024-01-15")
    for key in ("years", "months", "days", "total_days", "weeks", "remaining_days", "business_days"):
        assert backward[key] == -forward[key], key
    assert backward["total_seconds"] == "-" + forward["total_seconds"]
    assert date_diff({"start": "2024-03-01", "end": "2024-01-15"}).text.startswith(
        "Result: -(1 month, 15 days); end is before start\n"
    )


def test_a_backward_month_end_difference_mirrors_the_forward_one_unlike_relativedelta() -> None:
    facts = diff("2024-02-29", "2024-01-31")
    assert (facts["months"], facts["days"], facts["total_days"]) == (-1, 0, -29)
    assert relativedelta(date(2024, 1, 31), date(2024, 2, 29)) == relativedelta(days=-29)


def test_the_description_example_is_what_date_diff_returns() -> None:
    example = '{"start": "2024-12-20", "end": "2025-01-10", "holidays": {"country": "DE"}} gives Result: 21 days'
    assert example in DATE_DIFF.description
    assert "business_days 12 (3 holidays skipped)" in DATE_DIFF.description
    facts = date_diff({"start": "2024-12-20", "end": "2025-01-10", "holidays": {"country": "DE"}}).structured
    assert facts is not None
    assert (facts["days"], facts["business_days"], len(facts["holidays"]["skipped"])) == (21, 12, 3)


@pytest.mark.parametrize(
    ("start", "end", "business_days", "weekdays"),
    [
        pytest.param("2024-03-08", "2024-03-11", 1, ("Friday", "Monday"), id="friday-to-monday"),
        pytest.param("2024-03-09", "2024-03-11", 0, ("Saturday", "Monday"), id="weekend-only"),
        pytest.param("2024-03-11", "2024-03-18", 5, ("Monday", "Monday"), id="one-week"),
        pytest.param("2024-03-11", "2024-03-11", 0, ("Monday", "Monday"), id="same-day"),
        pytest.param("2024-03-18", "2024-03-11", -5, ("Monday", "Monday"), id="backwards"),
        pytest.param("2024-12-23", "2025-01-06", 10, ("Monday", "Monday"), id="holidays-are-not-known"),
    ],
)
def test_business_days_count_weekdays_from_start_included_to_end_excluded(
    start: str, end: str, business_days: int, weekdays: tuple[str, str]
) -> None:
    facts = diff(start, end)
    assert facts["business_days"] == business_days
    assert (facts["start_weekday"], facts["end_weekday"]) == weekdays


@pytest.mark.parametrize(
    ("start", "end", "hours"),
    [
        pytest.param("2024-03-09T12:00:00", "2024-03-10T12:00:00", 23, id="noon-to-noon-across-spring-forward"),
        pytest.param("2024-03-10T00:00:00", "2024-03-11T00:00:00", 23, id="the-23-hour-day"),
        pytest.param("2024-11-03T00:00:00", "2024-11-04T00:00:00", 25, id="the-25-hour-day"),
        pytest.param("2024-03-11T00:00:00", "2024-03-12T00:00:00", 24, id="an-ordinary-day"),
    ],
)
def test_a_calendar_day_across_a_dst_change_is_one_day_of_its_true_length(start: str, end: str, hours: int) -> None:
    facts = diff(start, end, NEW_YORK)
    assert (facts["days"], facts["hours"], facts["total_days"]) == (1, 0, 1)
    assert facts["total_hours"] == hours
    assert facts["total_seconds"] == str(hours * 3600)


def test_offsets_are_honoured_so_the_spring_forward_jump_is_one_real_hour() -> None:
    facts = diff("2024-03-10T01:30:00-05:00", "2024-03-10T03:30:00-04:00")
    assert (facts["hours"], facts["minutes"], facts["total_seconds"], facts["total_hours"]) == (1, 0, "3600", 1)
    assert (facts["start"], facts["end"], facts["timezone"]) == (
        "2024-03-10T06:30:00+00:00",
        "2024-03-10T07:30:00+00:00",
        "UTC",
    )


def test_endpoints_with_offsets_are_shown_and_counted_in_the_named_zone() -> None:
    facts = diff("2023-12-31T23:00:00-05:00", "2024-01-01T01:00:00Z", NEW_YORK)
    assert (facts["start"], facts["end"]) == ("2023-12-31T23:00:00-05:00", "2023-12-31T20:00:00-05:00")
    assert (facts["hours"], facts["total_hours"], facts["business_days"]) == (-3, -3, 0)
    assert (facts["start_weekday"], facts["end_weekday"]) == ("Sunday", "Sunday")


def test_without_a_zone_date_times_are_read_and_counted_in_utc() -> None:
    facts = diff("2023-12-31T23:00:00-05:00", "2024-01-01T23:00:00-05:00")
    assert (facts["start"], facts["start_weekday"]) == ("2024-01-01T04:00:00+00:00", "Monday")
    assert (facts["days"], facts["total_days"]) == (1, 1)


def test_a_repeated_local_time_means_its_first_occurrence() -> None:
    facts = diff("2024-11-03T01:30:00", "2024-11-03T01:30:00-05:00", NEW_YORK)
    assert facts["start"] == "2024-11-03T01:30:00-04:00"
    assert facts["total_seconds"] == "3600"


def test_a_month_step_that_lands_in_a_dst_gap_moves_forward_by_the_gap() -> None:
    facts = diff("2024-02-10T02:30:00", "2024-03-10T03:30:00", NEW_YORK)
    assert (facts["months"], facts["days"], facts["hours"], facts["minutes"]) == (1, 0, 0, 0)
    assert facts["total_hours"] == 29 * 24  # 29 days in a leap February, one hour lost, one hour later on the clock


def test_date_times_break_down_into_hours_minutes_and_fractional_seconds() -> None:
    result = date_diff({"start": "2024-01-01T00:00:00.250Z", "end": "2025-03-02T13:14:15.5Z"})
    facts = result.structured
    assert facts is not None
    assert [facts[key] for key in ("years", "months", "days", "hours", "minutes", "seconds")] == [
        1,
        2,
        1,
        13,
        14,
        15.25,
    ]
    whole = (date(2025, 3, 2) - date(2024, 1, 1)).days * 86_400 + 13 * 3600 + 14 * 60 + 15
    assert facts["total_seconds"] == f"{whole}.25"
    assert result.text.startswith("Result: 1 year, 2 months, 1 day, 13 hours, 14 minutes, 15.25 seconds\n")


@pytest.mark.parametrize(
    "text",
    [
        "2024-03-10T01:30",
        "2024-03-10T01:30:00",
        "2024-03-10 01:30:00",
        "2024-03-10t01:30:00z",
        "2024-03-10T01:30:00.123456+05:30",
        "2024-03-10T01:30:00,5-0800",
    ],
)
def test_the_accepted_date_time_spellings_are_read(text: str) -> None:
    assert diff(text, "2024-03-11T00:00:00Z")["kind"] == "date-time"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param(
            {"start": "2023-02-29", "end": "2024-01-01"},
            "Error: start = '2023-02-29' is not a valid date or time (day is out of range for month). Accepted: "
            "YYYY-MM-DD for a date, or YYYY-MM-DDTHH:MM[:SS[.ffffff]]",
            id="no-leap-day-in-2023",
        ),
        pytest.param(
            {"start": "2024-01-01", "end": "2024-13-01"}, "Error: end = '2024-13-01' is not a valid date", id="month-13"
        ),
        pytest.param(
            {"start": "2024/01/01", "end": "2024-01-02"},
            "Error: start = '2024/01/01' is not an ISO 8601 date or date-time. Accepted: YYYY-MM-DD",
            id="slashes",
        ),
        pytest.param(
            {"start": "\u0662\u0660\u0662\u0664-01-01", "end": "2024-01-02"},
            "is not an ISO 8601 date",
            id="digits-of-another-script",
        ),
        pytest.param(
            {"start": "next tuesday", "end": "2024-01-02"},
            "Error: start = 'next tuesday' is not an ISO 8601",
            id="words",
        ),
        pytest.param({"start": "2024-01-01T24:00", "end": "2024-01-02T00:00"}, "(hour must be in 0..23)", id="hour-24"),
        pytest.param(
            {"start": "2024-01-01T10:00+24:00", "end": "2024-01-02T00:00"},
            "(the offset +24:00 must be less than 24 hours",
            id="offset-too-large",
        ),
        pytest.param(
            {"start": "2024-01-01", "end": "2024-01-02", "timezone": "Mars/Olympus"},
            "Error: timezone = 'Mars/Olympus' is not a known IANA time zone; use a name such as 'UTC'",
            id="unknown-zone",
        ),
        pytest.param(
            {"start": "2024-01-01", "end": "2024-01-02", "timezone": "../../etc/passwd"},
            "Error: timezone = '../../etc/passwd' is not a known IANA time zone",
            id="path-as-zone",
        ),
        pytest.param(
            {"start": "2024-03-10T02:30:00", "end": "2024-03-11T00:00:00", "timezone": NEW_YORK},
            "Error: start = '2024-03-10T02:30:00' does not exist in America/New_York: clocks skip that local time "
            "(the UTC offset changes from -05:00 to -04:00). Give a time outside the gap, or write the offset you "
            "mean, e.g. 2024-03-10T02:30:00-05:00.",
            id="local-time-in-dst-gap",
        ),
        pytest.param(
            {"start": "2024-03-10", "end": "2024-03-11T00:00:00"},
            "Error: start is a date but end is a date-time; give both as dates (2024-03-10) or both as date-times",
            id="date-with-date-time",
        ),
        pytest.param(
            {"start": "2024-03-10T00:00:00", "end": "2024-03-11"},
            "Error: end is a date but start is a date-time",
            id="date-time-with-date",
        ),
        pytest.param(
            {"start": "9999-12-31T23:00:00", "end": "9999-12-31T23:30:00", "timezone": NEW_YORK},
            "falls outside the years 1 to 9999 in America/New_York",
            id="beyond-year-9999",
        ),
    ],
)
def test_bad_input_is_a_tool_error_quoting_the_value_and_what_is_accepted(
    arguments: dict[str, Any], message: str
) -> None:
    with pytest.raises(ToolError) as caught:
        date_diff(arguments)
    assert message in caught.value.message
    assert caught.value.message.startswith("Error: ")


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"start": "2024-01-01", "end": "2024-01-02"}, id="dates"),
        pytest.param({"start": "2024-01-01T00:00:00Z", "end": "2024-01-02T00:00", "timezone": NEW_YORK}, id="zoned"),
    ],
)
def test_the_date_diff_schema_accepts_two_endpoints_and_an_optional_zone(arguments: dict[str, Any]) -> None:
    assert SCHEMA.is_valid(arguments)


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"start": "2024-01-01"}, id="missing-end"),
        pytest.param({"start": "2024-01-01", "end": "2024-01-02", "unit": "days"}, id="extra-argument"),
        pytest.param({"start": 20240101, "end": "2024-01-02"}, id="number-date"),
        pytest.param({"start": "2024-01-01", "end": None}, id="null"),
        pytest.param({"start": "2024-01-01", "end": "2024-01-02", "holidays": "DE"}, id="holidays-not-an-object"),
        pytest.param({"start": "2024-01-01", "end": "2024-01-02", "holidays": {}}, id="holidays-without-country"),
        pytest.param(
            {"start": "2024-01-01", "end": "2024-01-02", "holidays": {"country": "DE", "region": "BY"}},
            id="holidays-unknown-field",
        ),
        pytest.param({"start": "2024-01-01", "end": "2024-01-02", "timezone": -5}, id="numeric-zone"),
        pytest.param({"start": "2024-01-01" + " " * 100, "end": "2024-01-02"}, id="too-long"),
    ],
)
def test_the_date_diff_schema_rejects_other_shapes(arguments: dict[str, Any]) -> None:
    assert not SCHEMA.is_valid(arguments)


DATES = st.dates(min_value=date(1, 1, 1), max_value=date(9999, 12, 31))


@given(DATES, DATES)
def test_swapping_the_dates_only_flips_the_signs(first: date, second: date) -> None:
    forward, backward = diff(first.isoformat(), second.isoformat()), diff(second.isoformat(), first.isoformat())
    for key in ("years", "months", "days", "total_days", "weeks", "remaining_days", "business_days"):
        assert backward[key] == -forward[key], key


@given(DATES, DATES)
def test_adding_the_breakdown_to_the_earlier_date_gives_the_later_one(first: date, second: date) -> None:
    earlier, later = sorted((first, second))
    facts = diff(earlier.isoformat(), later.isoformat())
    steps = relativedelta(years=facts["years"], months=facts["months"])
    assert earlier + steps + timedelta(days=facts["days"]) == later
    assert 0 <= facts["months"] < 12
    assert relativedelta(later, earlier) == relativedelta(
        years=facts["years"], months=facts["months"], days=facts["days"]
    )
    assert facts["total_days"] == (later - earlier).days


@given(DATES, st.integers(min_value=0, max_value=40))
def test_business_days_match_counting_them_one_by_one(start: date, length: int) -> None:
    end = min(start + timedelta(days=length), date(9999, 12, 31))
    expected = sum(1 for offset in range((end - start).days) if (start + timedelta(days=offset)).weekday() < 5)
    assert diff(start.isoformat(), end.isoformat())["business_days"] == expected


LOCAL_TIMES = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2026, 12, 31))


@given(LOCAL_TIMES, LOCAL_TIMES, st.sampled_from([NEW_YORK, "Europe/London", "Australia/Lord_Howe", "UTC"]))
def test_date_times_in_a_dst_zone_add_up_to_the_exact_elapsed_time(
    first: datetime, second: datetime, zone: str
) -> None:
    tz = ZoneInfo(zone)
    start, end = first.replace(microsecond=0), second.replace(microsecond=0)
    try:
        facts = diff(start.isoformat(), end.isoformat(), zone)
    except ToolError as error:
        assume("does not exist" not in error.message)
        raise
    elapsed = end.replace(tzinfo=tz).astimezone(UTC) - start.replace(tzinfo=tz).astimezone(UTC)
    assert Decimal(facts["total_seconds"]) == Decimal(elapsed // timedelta(microseconds=1)).scaleb(-6)
    backward = diff(end.isoformat(), start.isoformat(), zone)["total_seconds"]
    assert Decimal(backward) == -Decimal(facts["total_seconds"])
    # Stepping the earlier local time by the breakdown's calendar part, then the exact rest, reaches the later one.
    sign = 1 if elapsed >= timedelta(0) else -1
    earlier = (start if sign > 0 else end).replace(tzinfo=tz)
    later_instant = (end if sign > 0 else start).replace(tzinfo=tz).astimezone(UTC)
    calendar = relativedelta(years=sign * facts["years"], months=sign * facts["months"], days=sign * facts["days"])
    rest = timedelta(hours=sign * facts["hours"], minutes=sign * facts["minutes"], seconds=sign * facts["seconds"])
    assert (earlier + calendar).replace(fold=0).astimezone(UTC) + rest == later_instant
    assert rest < timedelta(days=1, hours=1)


@pytest.mark.parametrize(
    ("end", "line"),
    [
        pytest.param("2024-01-01T01:30:00", "Elapsed: 1.5 hours = 5400 seconds", id="exact-fraction-of-an-hour"),
        pytest.param("2024-01-01T00:00:01", "Elapsed: about 0.0002777777777777778 hours = 1 second", id="rounded"),
        pytest.param("2024-01-01T00:00:00.5", "Elapsed: about 0.0001388888888888889 hours = 0.5 seconds", id="half"),
    ],
)
def test_the_elapsed_line_marks_hours_that_are_rounded_and_gives_exact_seconds(end: str, line: str) -> None:
    assert date_diff({"start": "2024-01-01T00:00:00", "end": end}).text.splitlines()[3] == line
