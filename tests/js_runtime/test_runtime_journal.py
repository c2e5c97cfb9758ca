"""The runtime's journal (``js_runtime/journal.js``): a journaled run records its clock readings and the order of its
timers, draws Math.random from the server's seed, and, run again with its journal as a prefix, sees the same."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from isolate_harness import OUTCOME_TIMEOUT_SEC, Isolate

from js_runtime import web_payload

SEED = "5a" * 32
RANDOM = "0123456789abcdef00112233445566ff"


def journaled(code: str, journal: dict[str, Any] | None = None, *, seed: str = SEED, random: str = RANDOM) -> Any:
    """The outcome of ``code`` run once in a fresh isolate as a journaled run with ``journal`` as its prefix."""
    runtime = Isolate()
    try:
        options = {
            "outputCap": 65536,
            "seed": seed,
            "journal": {"random": random, **(journal or {})},
            "modules": web_payload(),
        }
        text = runtime.api["run"](code, "", json.dumps(options))
        if text == "":
            text = runtime.delivered.get(timeout=OUTCOME_TIMEOUT_SEC)[0]
        return json.loads(text)
    finally:
        runtime.close()


def replayed(outcome: dict[str, Any]) -> dict[str, Any]:
    """The prefix that replays ``outcome``'s run."""
    return {"clock": outcome["journal"]["clock"], "events": outcome["journal"]["events"]}


EVERY_CLOCK = """
const seen = [Date.now(), new Date().getTime(), Date(), performance.now(),
  Temporal.Now.instant().epochMilliseconds, Temporal.Now.plainDateISO('UTC').toString(),
  Temporal.Now.zonedDateTimeISO('Europe/Paris').toString(),
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'full', timeStyle: 'long' }).format(),
  new Intl.DateTimeFormat('en', { timeZone: 'UTC', timeStyle: 'medium' }).formatToParts().map(p => p.value).join('')];
await new Promise(resolve => setTimeout(resolve, 30));
seen.push(Date.now(), performance.now());
seen
"""


def test_a_run_done_again_with_its_journal_reads_the_same_clock_everywhere_it_can_be_read() -> None:
    first = journaled(EVERY_CLOCK)
    assert first["ok"], first
    time.sleep(1.1)  # a later second, so that a live clock would read differently in every field
    again = journaled(EVERY_CLOCK, replayed(first))
    assert again["ok"], again
    assert again["result"] == first["result"]
    assert again["journal"]["replaying"] is False


def test_without_its_journal_the_same_code_reads_the_live_clock() -> None:
    first = journaled(EVERY_CLOCK)
    time.sleep(1.1)
    fresh = journaled(EVERY_CLOCK)
    assert fresh["result"][0] > first["result"][0]
    assert fresh["result"][2] != first["result"][2]  # Date() as text, to the second


RANDOMNESS = "[Math.random(), Math.random(), crypto.randomUUID(), [...crypto.getRandomValues(new Uint8Array(4))]]"


def test_math_random_and_crypto_draw_the_same_values_from_the_same_seeds() -> None:
    first = journaled(RANDOMNESS)
    again = journaled(RANDOMNESS, replayed(first))
    assert first["result"] == again["result"]
    assert first["result"][0] != first["result"][1]


@pytest.mark.parametrize(
    ("seed", "random", "differs"),
    [
        pytest.param(SEED, "f" * 32, [0, 1], id="other-random-seed"),
        pytest.param("00" * 32, RANDOM, [2, 3], id="other-crypto-seed"),
    ],
)
def test_each_seed_decides_its_own_draws_and_only_them(seed: str, random: str, differs: list[int]) -> None:
    base = journaled(RANDOMNESS)["result"]
    other = journaled(RANDOMNESS, seed=seed, random=random)["result"]
    for index in range(4):
        assert (base[index] != other[index]) is (index in differs), index


def test_math_random_of_a_journaled_run_is_uniform_in_the_unit_interval() -> None:
    outcome = journaled(
        "const xs = Array.from({ length: 20000 }, Math.random);"
        "({ min: Math.min(...xs), max: Math.max(...xs), mean: xs.reduce((a, b) => a + b) / xs.length,"
        "  distinct: new Set(xs).size, integers: xs.filter(x => x === Math.floor(x)).length })"
    )
    result = outcome["result"]
    assert 0 <= result["min"] < 0.001 and 0.999 < result["max"] < 1
    assert abs(result["mean"] - 0.5) < 0.01
    assert result["distinct"] == 20000 and result["integers"] == 0


TIMER_ORDER = """
const order = [];
await new Promise(resolve => {
  setTimeout(() => order.push('slow'), 40);
  setTimeout(() => order.push('quick'), 1);
  setTimeout(resolve, 80);
});
order
"""


def test_the_order_of_timers_comes_from_the_journal_while_its_prefix_lasts() -> None:
    live = journaled(TIMER_ORDER)
    assert live["result"] == ["quick", "slow"]
    assert live["journal"]["events"] == [2, 1, 3]
    # A prefix in which the slower timer came first (as a loaded machine could have had it) is followed.
    forced = journaled(TIMER_ORDER, {"clock": live["journal"]["clock"], "events": [1, 2, 3]})
    assert forced["result"] == ["slow", "quick"]
    assert forced["journal"]["events"] == [1, 2, 3]


def test_a_timer_due_after_the_prefix_ends_still_waits_for_its_time() -> None:
    now_ms = int(time.time() * 1000)
    # The prefix holds the run's first clock reading (now) and no event: the timer must wait its 150 ms from it.
    outcome = journaled(
        "const start = Date.now(); await new Promise(r => setTimeout(r, 150)); Date.now() - start",
        {"clock": [now_ms, 1], "events": []},
    )
    assert outcome["ok"], outcome
    assert outcome["result"] >= 150


def test_a_journal_past_its_bound_says_it_overflowed() -> None:
    outcome = journaled("for (let i = 0; i < 20100; i++) setTimeout(() => {}, 1); 'ok'")
    assert outcome["journal"]["overflow"] is True
    assert len(outcome["journal"]["events"]) == 20000


def test_a_run_without_a_journal_keeps_the_engines_own_date_and_random() -> None:
    runtime = Isolate()
    try:
        outcome = runtime.run("[String(Date).includes('[native code]'), String(Math.random).includes('[native code]')]")
    finally:
        runtime.close()
    assert outcome["result"] == [True, True]
    assert "journal" not in outcome


def test_the_journaled_date_behaves_as_the_engines_date() -> None:
    outcome = journaled(
        """
        class Stamp extends Date { label() { return 'at ' + this.getUTCFullYear(); } }
        ({
          names: Object.getOwnPropertyNames(Date).sort(),
          length: Date.length, name: Date.name,
          fixed: new Date(2020, 1, 29, 12).toISOString(),
          parsed: Date.parse('2021-03-04T05:06:07Z'), utc: Date.UTC(1999, 11, 31),
          invalid: String(new Date(undefined)), typeofCall: typeof Date(),
          ctor: new Date().constructor === Date, proto: Object.getPrototypeOf(new Date()) === Date.prototype,
          instance: new Date(0) instanceof Date, sub: new Stamp(0).label(), subInstance: new Stamp() instanceof Date,
          attributes: (({ writable, enumerable, configurable }) => ({ writable, enumerable, configurable }))(
            Object.getOwnPropertyDescriptor(globalThis, 'Date')),
        })
        """
    )
    result = outcome["result"]
    assert result["names"] == ["UTC", "length", "name", "now", "parse", "prototype"]
    assert (result["length"], result["name"]) == (7, "Date")
    assert result["fixed"] == "2020-02-29T12:00:00.000Z"
    assert result["parsed"] == 1614834367000 and result["utc"] == 946598400000
    assert result["invalid"] == "Invalid Date" and result["typeofCall"] == "string"
    assert result["ctor"] and result["proto"] and result["instance"]
    assert result["sub"] == "at 1970" and result["subInstance"]
    assert result["attributes"] == {"writable": True, "enumerable": False, "configurable": True}
