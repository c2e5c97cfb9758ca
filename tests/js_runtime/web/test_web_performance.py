"""performance reads the host clock: now() is host.now(), timeOrigin the epoch time of its zero."""

from __future__ import annotations

import json

from loader_stand_in import WebIsolate


def test_now_is_the_host_clock(web: WebIsolate) -> None:
    web.eval("globalThis.__now = 12.5")
    assert web.eval("performance.now()") == 12.5
    web.eval("globalThis.__now = 40")
    assert web.eval("performance.now()") == 40


def test_time_origin_is_the_epoch_time_when_the_host_clock_read_zero(web: WebIsolate) -> None:
    web.eval("Date.now = () => 1700000000250; globalThis.__now = 250")
    assert web.eval("performance.timeOrigin") == 1700000000000
    assert json.loads(web.eval("JSON.stringify(performance.toJSON())")) == {"timeOrigin": 1700000000000}


def test_marks_and_measures_default_to_the_host_clock(web: WebIsolate) -> None:
    web.eval("globalThis.__now = 5; performance.mark('start'); globalThis.__now = 30")
    measured = web.eval(
        "JSON.stringify([performance.measure('since-start', 'start').toJSON(), "
        "performance.measure('since-origin').toJSON(), performance.mark('end').startTime])"
    )
    assert json.loads(measured) == [
        {"name": "since-start", "entryType": "measure", "startTime": 5, "duration": 25, "detail": None},
        {"name": "since-origin", "entryType": "measure", "startTime": 0, "duration": 30, "detail": None},
        30,
    ]


def test_entries_are_listed_by_start_time_and_filtered_by_name_and_type(web: WebIsolate) -> None:
    listed = web.eval(
        "performance.mark('b', { startTime: 9 }); performance.mark('a', { startTime: 3 }); "
        "performance.measure('a', { start: 4, end: 6 }); JSON.stringify([performance.getEntries().map((e) => "
        "e.name + ':' + e.entryType), performance.getEntriesByName('a').length, performance.getEntriesByName('a', "
        "'mark').length, performance.getEntriesByType('mark').map((e) => e.name)])"
    )
    assert json.loads(listed) == [["a:mark", "a:measure", "b:mark"], 2, 1, ["a", "b"]]


def test_a_measure_to_the_latest_mark_of_a_name(web: WebIsolate) -> None:
    result = web.eval(
        "performance.mark('x', { startTime: 1 }); performance.mark('x', { startTime: 7 }); "
        "performance.measure('m', 'x', 'x').startTime"
    )
    assert result == 7
