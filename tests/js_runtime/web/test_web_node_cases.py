"""The web modules give the outcomes Node 20 gives (recorded in fixtures/node_cases.json).

A few outcomes differ on purpose; `DEVIATIONS` holds what the modules give instead, and why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_cases import CASES, DESCRIBE
from web_harness import WebIsolate

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "node_cases.json").read_text(encoding="ascii"))

LATIN1_HIGH = "".join(chr(c) for c in range(160, 256))
DEVIATIONS: dict[str, tuple[Any, str]] = {}


def _recorded(module: str) -> list[Any]:
    return [pytest.param(entry["case"], entry["node"], id=f"{module}-{i}") for i, entry in enumerate(FIXTURE[module])]


def outcomes(web: WebIsolate, sources: list[str]) -> list[Any]:
    result: list[Any] = json.loads(web.eval(f"{DESCRIBE}({json.dumps(sources)})"))
    return result


def test_the_fixture_holds_every_case_recorded_by_node_20() -> None:
    assert FIXTURE["node"].startswith("v20.")
    for module, sources in CASES.items():
        assert [entry["case"] for entry in FIXTURE[module]] == sources, module


@pytest.mark.parametrize(
    ("case", "node"), [p for module in CASES for p in _recorded(module)]
)
def test_a_case_gives_what_node_20_gives(web: WebIsolate, case: str, node: Any) -> None:
    expected = DEVIATIONS[case][0] if case in DEVIATIONS else node
    assert outcomes(web, [case]) == [expected]
