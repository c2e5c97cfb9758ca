"""The web modules give the outcomes Node 20 gives (recorded in fixtures/node_cases.json).

A few outcomes differ on purpose; `DEVIATIONS` holds what the modules give instead, and why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from loader_stand_in import WebIsolate, requires_node
from make_fixtures import node_outcomes
from web_cases import CASES, DESCRIBE

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "node_cases.json").read_text(encoding="ascii"))

CP1252_80_9F = (
    "\u20ac\\u{81}\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\\u{8d}\u017d\\u{8f}"
    "\\u{90}\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\\u{9d}\u017e\u0178"
)
DEVIATIONS: dict[str, tuple[Any, str]] = {
    "() => new TextDecoder('windows-1252').decode(new Uint8Array(Array.from({ length: 32 }, (_, i) => 128 + i)))": (
        {"value": CP1252_80_9F},
        "the Encoding Standard's windows-1252 index, as browsers decode it; Node 20 gives ISO-8859-1 here",
    ),
    "() => new TextDecoder('gbk').encoding": (
        {"error": ["RangeError", "RangeError", "ERR_ENCODING_NOT_SUPPORTED", 'The "gbk" encoding is not supported']},
        "only UTF-8, UTF-16LE/BE and windows-1252 are built in; Node's ICU knows the legacy encodings",
    ),
    "() => [new DOMException('m', {}).name, new DOMException('m', { name: undefined }).name]": (
        {"value": ["Error", "Error"]},
        "Web IDL's default name for an options object without one; Node 20 leaves it undefined",
    ),
}


def _recorded(module: str) -> list[Any]:
    return [pytest.param(entry["case"], entry["node"], id=f"{module}-{i}") for i, entry in enumerate(FIXTURE[module])]


def outcomes(web: WebIsolate, sources: list[str]) -> list[Any]:
    result: list[Any] = json.loads(web.eval(f"{DESCRIBE}({json.dumps(sources)})"))
    return result


def test_the_fixture_holds_every_case_recorded_by_node_20() -> None:
    assert FIXTURE["node"].startswith("v20.")
    for module, sources in CASES.items():
        assert [entry["case"] for entry in FIXTURE[module]] == sources, module


@pytest.mark.parametrize(("case", "node"), [p for module in CASES for p in _recorded(module)])
def test_a_case_gives_what_node_20_gives(web: WebIsolate, case: str, node: Any) -> None:
    expected = DEVIATIONS[case][0] if case in DEVIATIONS else node
    assert outcomes(web, [case]) == [expected]


def test_each_deviation_names_a_recorded_case_where_node_differs() -> None:
    recorded = {entry["case"]: entry["node"] for module in CASES for entry in FIXTURE[module]}
    for case, (ours, reason) in DEVIATIONS.items():
        assert case in recorded, case
        assert recorded[case] != ours, case
        assert reason


@requires_node
@pytest.mark.parametrize("module", list(CASES))
def test_the_recorded_outcomes_are_what_node_gives_now(module: str) -> None:
    # Outcomes that depend on the moment (random values, clocks) are booleans in the cases.
    assert node_outcomes(CASES[module]) == [entry["node"] for entry in FIXTURE[module]]
