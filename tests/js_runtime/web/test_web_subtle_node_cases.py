"""crypto.subtle's key operations give the outcomes Node 20 gives (recorded in fixtures/subtle_node.json).

A few outcomes differ on purpose; `DEVIATIONS` holds what the module gives instead, and why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from loader_stand_in import WebIsolate, requires_node
from make_fixtures import node_outcomes
from subtle_cases import CASES
from web_cases import DESCRIBE

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "subtle_node.json").read_text(encoding="ascii"))

OFFER = (
    "its SubtleCrypto has digest (SHA-1, SHA-256, SHA-384, SHA-512), HMAC keys (sign, verify, generateKey, "
    "importKey, exportKey) and PBKDF2 and HKDF keys (deriveBits, deriveKey)"
)


def _refused(what: str) -> dict[str, Any]:
    return {"error": ["DOMException", "NotSupportedError", 9, f"{what} is not supported in this sandbox: {OFFER}"]}


def _case(group: str, text: str) -> str:
    return next(case for case in CASES[group] if text in case)


DEVIATIONS: dict[str, tuple[Any, str]] = {
    _case("derive", "name: 'ECDH'"): (
        _refused("ECDH"),
        "ECDH is not implemented, so the call is refused before Node would read its parameters",
    ),
    _case("sign", "verify('ECDSA'"): (
        {"error": ["DOMException", "InvalidAccessError", 15, "Unable to use this key to verify"]},
        "ECDSA's parameters are not read (it is not implemented): the key, an HMAC key, is the wrong one for it",
    ),
}


def _recorded(group: str) -> list[Any]:
    return [pytest.param(entry["case"], entry["node"], id=f"{group}-{i}") for i, entry in enumerate(FIXTURE[group])]


def test_the_fixture_holds_every_case_recorded_by_node_20() -> None:
    assert FIXTURE["node"].startswith("v20.")
    for group, sources in CASES.items():
        assert [entry["case"] for entry in FIXTURE[group]] == sources, group


@pytest.mark.parametrize(("case", "node"), [p for group in CASES for p in _recorded(group)])
def test_a_case_gives_what_node_20_gives(web: WebIsolate, case: str, node: Any) -> None:
    expected = DEVIATIONS[case][0] if case in DEVIATIONS else node
    assert json.loads(web.eval(f"{DESCRIBE}({json.dumps([case])})")) == [expected]


def test_each_deviation_names_a_recorded_case_where_node_differs() -> None:
    recorded = {entry["case"]: entry["node"] for group in CASES for entry in FIXTURE[group]}
    for case, (ours, reason) in DEVIATIONS.items():
        assert case in recorded, case
        assert recorded[case] != ours, case
        assert reason


@requires_node
@pytest.mark.parametrize("group", list(CASES))
def test_the_recorded_outcomes_are_what_node_gives_now(group: str) -> None:
    assert node_outcomes(CASES[group]) == [entry["node"] for entry in FIXTURE[group]]
