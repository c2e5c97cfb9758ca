"""``date_diff`` with public holidays: which calendar, which days it skipped, and what it refuses."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import holidays
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox_server.errors import ToolError
from sandbox_server.tools.date_diff import DATE_DIFF, date_diff
from sandbox_server.tools.public_holidays import MAX_HOLIDAY_YEARS

from .calling import Call

pytestmark = pytest.mark.anyio


async def test_christmas_and_new_year_are_not_business_days_in_bavaria(call: Call) -> None:
    result = await call(
        DATE_DIFF, {"start": "2024-12-23", "end": "2025-01-07", "holidays": {"country": "DE", "subdivision": "BY"}}
    )
    facts = result.structured
    assert facts is not None
    # Eleven weekdays, of which Christmas Day, its second day, New Year's Day and Epiphany (Bavaria only).
    assert facts["business_days"] == 11 - 4
    assert facts["holidays"] == {
        "country": "DE",
        "subdivision": "BY",
        "skipped": [
            {"date": "2024-12-25", "name": "Christmas Day"},
            {"date": "2024-12-26", "name": "Second Day of Christmas"},
            {"date": "2025-01-01", "name": "New Year's Day"},
            {"date": "2025-01-06", "name": "Epiphany"},
        ],
        "note": None,
    }
    assert result.text.splitlines()[-2:] == [
        "Business days (Monday to Friday, start included, end excluded): 7, public holidays excluded",
        "Public holidays of DE-BY skipped (Monday to Friday): 2024-12-25 Christmas Day; "
        "2024-12-26 Second Day of Christmas; 2025-01-01 New Year's Day; 2025-01-06 Epiphany",
    ]


async def test_a_subdivisions_own_holiday_counts_only_there(call: Call) -> None:
    span = {"start": "2025-01-06", "end": "2025-01-07"}  # Epiphany, a Monday
    bavaria = (await call(DATE_DIFF, {**span, "holidays": {"country": "DE", "subdivision": "BY"}})).structured
    berlin = (await call(DATE_DIFF, {**span, "holidays": {"country": "DE", "subdivision": "BE"}})).structured
    assert bavaria is not None and berlin is not None
    assert (bavaria["business_days"], berlin["business_days"]) == (0, 1)


async def test_holidays_on_weekends_are_not_listed_because_they_were_never_business_days(call: Call) -> None:
    # Christmas 2022 fell on a Sunday; the United States observe it on Monday the 26th.
    facts = (
        await call(DATE_DIFF, {"start": "2022-12-24", "end": "2022-12-28", "holidays": {"country": "US"}})
    ).structured
    assert facts is not None
    assert facts["holidays"]["skipped"] == [{"date": "2022-12-26", "name": "Christmas Day (observed)"}]
    assert facts["business_days"] == 1


async def test_codes_are_read_without_regard_to_case(call: Call) -> None:
    facts = (
        await call(
            DATE_DIFF, {"start": "2025-01-06", "end": "2025-01-07", "holidays": {"country": "de", "subdivision": "by"}}
        )
    ).structured
    assert facts is not None
    assert (facts["holidays"]["country"], facts["holidays"]["subdivision"], facts["business_days"]) == ("DE", "BY", 0)


async def test_backwards_spans_subtract_the_same_holidays_with_the_sign_flipped(call: Call) -> None:
    calendar = {"country": "FR"}
    forward = (await call(DATE_DIFF, {"start": "2024-05-01", "end": "2024-06-01", "holidays": calendar})).structured
    backward = (await call(DATE_DIFF, {"start": "2024-06-01", "end": "2024-05-01", "holidays": calendar})).structured
    assert forward is not None and backward is not None
    assert backward["business_days"] == -forward["business_days"]
    assert backward["holidays"] == forward["holidays"]
    assert [day["date"] for day in forward["holidays"]["skipped"]] == [
        "2024-05-01",
        "2024-05-08",
        "2024-05-09",
        "2024-05-20",
    ]


async def test_date_times_count_holidays_by_the_local_calendar_of_the_zone(call: Call) -> None:
    # 23:30 on 3 July in Los Angeles is already 4 July in UTC: the holiday must be judged by local dates.
    arguments = {"start": "2024-07-03T23:30:00", "end": "2024-07-05T23:30:00", "timezone": "America/Los_Angeles"}
    facts = (await call(DATE_DIFF, {**arguments, "holidays": {"country": "US"}})).structured
    assert facts is not None
    assert facts["holidays"]["skipped"] == [{"date": "2024-07-04", "name": "Independence Day"}]
    assert facts["business_days"] == 1


async def test_a_note_from_the_holiday_data_about_its_own_limits_is_passed_on(call: Call) -> None:
    result = await call(DATE_DIFF, {"start": "2040-01-01", "end": "2040-02-01", "holidays": {"country": "IN"}})
    assert result.structured is not None
    note = result.structured["holidays"]["note"]
    assert note is not None and "available only" in note
    assert result.text.endswith(f"Note from the holiday calendar: {note}")


def test_without_holidays_nothing_changes_and_the_text_says_holidays_are_ignored() -> None:
    result = date_diff({"start": "2024-12-23", "end": "2025-01-06"})
    assert result.structured is not None
    assert (result.structured["business_days"], result.structured["holidays"]) == (10, None)
    assert result.text.endswith(
        "Business days (Monday to Friday, start included, end excluded): 10 (public holidays ignored)"
    )


def test_an_unknown_country_is_an_error_listing_the_valid_codes() -> None:
    with pytest.raises(ToolError) as caught:
        date_diff({"start": "2024-01-01", "end": "2024-02-01", "holidays": {"country": "XX"}})
    message = caught.value.message
    assert message.startswith("Error: holidays.country = 'XX' is not a country the holidays package knows. Use an ISO")
    for code in ("DE", "FR", "US", "JP"):
        assert f" {code}," in message


def test_an_unknown_subdivision_is_an_error_listing_that_countrys_subdivisions() -> None:
    with pytest.raises(ToolError) as caught:
        date_diff({"start": "2024-01-01", "end": "2024-02-01", "holidays": {"country": "DE", "subdivision": "ZZ"}})
    message = caught.value.message
    assert message.startswith(
        "Error: holidays.subdivision = 'ZZ' is not a subdivision of DE. Known subdivisions of DE:"
    )
    assert "BY" in message and "BE" in message


def test_a_country_without_subdivisions_says_to_omit_it() -> None:
    without = next(code for code, parts in holidays.list_supported_countries().items() if not parts)
    with pytest.raises(ToolError, match="none \\(omit subdivision\\)"):
        date_diff({"start": "2024-01-01", "end": "2024-02-01", "holidays": {"country": without, "subdivision": "A"}})


def test_a_span_too_long_for_holiday_lookup_is_refused_with_the_limit() -> None:
    end = f"{2000 + MAX_HOLIDAY_YEARS:04d}-01-01"
    with pytest.raises(ToolError, match=f"spans of less than {MAX_HOLIDAY_YEARS} calendar years"):
        date_diff({"start": "2000-01-01", "end": end, "holidays": {"country": "US"}})
    assert date_diff({"start": "2000-01-01", "end": end})  # without holidays any span is fine


@settings(max_examples=30, deadline=None)
@given(st.dates(min_value=date(1990, 1, 1), max_value=date(2060, 12, 31)), st.integers(0, 60))
def test_business_days_with_holidays_match_counting_day_by_day(start: date, length: int) -> None:
    end = start + timedelta(days=length)
    table = holidays.country_holidays("GB", subdiv="SCT", years=range(start.year, end.year + 1))
    expected = sum(
        1 for offset in range(length) if (day := start + timedelta(days=offset)).weekday() < 5 and day not in table
    )
    arguments: dict[str, Any] = {"start": start.isoformat(), "end": end.isoformat()}
    facts = date_diff({**arguments, "holidays": {"country": "GB", "subdivision": "SCT"}}).structured
    assert facts is not None
    assert facts["business_days"] == expected


@pytest.mark.parametrize("variable", ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"])
def test_holiday_names_do_not_depend_on_the_locale_of_the_process(
    monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv(variable, "de_DE.UTF-8")
    facts = date_diff({"start": "2024-12-23", "end": "2024-12-27", "holidays": {"country": "DE"}}).structured
    assert facts is not None
    assert [day["name"] for day in facts["holidays"]["skipped"]] == ["Christmas Day", "Second Day of Christmas"]


@pytest.mark.parametrize(
    ("start", "end"),
    [
        pytest.param("1950-01-01", "1950-02-01", id="before-the-rules-begin"),
        pytest.param("2100-12-01", "2101-01-02", id="after-the-rules-end"),
    ],
)
def test_years_the_holiday_rules_do_not_cover_are_named_in_a_note(start: str, end: str) -> None:
    facts = date_diff({"start": start, "end": end, "holidays": {"country": "DE"}}).structured
    assert facts is not None
    table = holidays.country_holidays("DE")
    assert facts["holidays"]["note"] == (
        f"The holiday data for DE covers {table.start_year} to {table.end_year}; days outside those years were "
        "counted without public holidays."
    )


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31"])
def test_an_empty_span_at_either_end_of_the_calendar_has_no_business_days_and_no_error(day: str) -> None:
    facts = date_diff({"start": day, "end": day, "holidays": {"country": "US"}}).structured
    assert facts is not None
    assert (facts["business_days"], facts["holidays"]["skipped"]) == (0, [])


def test_the_last_covered_year_needs_no_note() -> None:
    facts = date_diff({"start": "2100-12-01", "end": "2101-01-01", "holidays": {"country": "DE"}}).structured
    assert facts is not None
    assert facts["holidays"]["note"] is None
