"""Public holidays for ``date_diff``'s business-day count, from the ``holidays`` package.

The package is imported on first use only: it is a large table of rules, and most calls never need it. Its
warnings (such as "holidays are known only from 2001 to 2035" for some countries) are data for the caller,
not log noise, so they are captured and returned with the holidays.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from sandbox_server.errors import ToolError

__all__ = [
    "MAX_HOLIDAY_YEARS",
    "NAME_LANGUAGE",
    "SkippedHolidays",
    "holiday_calendar",
    "supported_countries",
    "weekday_holidays",
]

MAX_HOLIDAY_YEARS = 100
"""Longest span, in calendar years, over which ``date_diff`` looks up public holidays."""
ONE_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class SkippedHolidays:
    """The public holidays falling on Mondays to Fridays of one span, with the calendar they came from."""

    country: str
    subdivision: str | None
    days: list[tuple[date, str]]
    note: str | None


NAME_LANGUAGE = "en_US"
"""Language of holiday names wherever the package has a translation (it has one for every translated country).

Without an explicit language the package picks one from the process's locale variables, so the same call would
answer in German in one environment and in English in another.
"""


@cache
def supported_countries() -> dict[str, tuple[str, ...]]:
    """Country code -> its subdivision codes, as the ``holidays`` package knows them."""
    import holidays

    return {code: tuple(subdivisions) for code, subdivisions in holidays.list_supported_countries().items()}


@cache
def _translated_countries() -> frozenset[str]:
    import holidays

    return frozenset(
        code for code, languages in holidays.list_localized_countries().items() if NAME_LANGUAGE in languages
    )


def holiday_calendar(arguments: dict[str, Any]) -> tuple[str, str | None]:
    """The country and subdivision named by the ``holidays`` argument, checked against the package's lists."""
    countries = supported_countries()
    country_text = str(arguments["country"])
    country = country_text.upper()
    if country not in countries:
        raise ToolError(
            f"Error: holidays.country = {country_text[:20]!r} is not a country the holidays package knows. "
            f"Use an ISO 3166-1 alpha-2 code, one of: {', '.join(sorted(countries))}."
        )
    subdivision_text = arguments.get("subdivision")
    if subdivision_text is None:
        return country, None
    by_upper = {code.upper(): code for code in countries[country]}
    subdivision = by_upper.get(str(subdivision_text).upper())
    if subdivision is None:
        known = ", ".join(countries[country]) if countries[country] else "none (omit subdivision)"
        raise ToolError(
            f"Error: holidays.subdivision = {str(subdivision_text)[:20]!r} is not a subdivision of {country}. "
            f"Known subdivisions of {country}: {known}."
        )
    return country, subdivision


def weekday_holidays(arguments: dict[str, Any], first: date, last: date) -> SkippedHolidays:
    """Public holidays on Mondays to Fridays from ``first`` (included) to ``last`` (excluded), ``first <= last``."""
    country, subdivision = holiday_calendar(arguments)
    if last.year - first.year >= MAX_HOLIDAY_YEARS:
        raise ToolError(
            f"Error: public holidays are looked up for spans of less than {MAX_HOLIDAY_YEARS} calendar years; "
            f"this one runs from {first.year} to {last.year}. Omit holidays, or split the span."
        )
    import holidays

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = holidays.country_holidays(
            country,
            subdiv=subdivision,
            years=range(first.year, last.year + 1),
            language=NAME_LANGUAGE if country in _translated_countries() else None,
        )
    notes = [str(warning.message) for warning in caught]
    # Outside the years its rules cover the package returns no holidays at all, without a warning.
    known_from, known_to = int(table.start_year), int(table.end_year)
    last_counted = last - ONE_DAY if last > first else first
    if first.year < known_from or last_counted.year > known_to:
        where = country + (f"-{subdivision}" if subdivision else "")
        notes.append(
            f"The holiday data for {where} covers {known_from} to {known_to}; days outside those years were "
            "counted without public holidays."
        )
    note = "; ".join(dict.fromkeys(notes)) or None
    days = [
        (day, table[day])
        for day in sorted(table)
        if first <= day < last and day.weekday() < 5  # weekends are not business days anyway
    ]
    return SkippedHolidays(country, subdivision, days, note)
