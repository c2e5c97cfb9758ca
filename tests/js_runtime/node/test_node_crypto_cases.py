"""Node's crypto module gives the outcomes Node 20 gives (recorded in fixtures/crypto_node.json).

Node's digests and random bytes are Buffers; here they are Buffers once the buffer module is there, and plain
Uint8Arrays before that, which is the only difference allowed besides `DEVIATIONS` (what the module gives
instead, and why).
"""

from __future__ import annotations

import json
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from crypto_cases import CASES, DESCRIBE
from isolate_harness import run_in_fresh_isolate
from record_crypto_fixtures import node_outcomes

from js_runtime import node_modules

requires_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "crypto_node.json").read_text(encoding="ascii"))
HAS_BUFFER = "buffer" in node_modules()
OUTPUT_CAP = 1 << 24
HASH_LIST = "md5, sha1, sha224, sha256, sha384, sha512, sha512-224, sha512-256"


def _case(group: str, text: str) -> str:
    return next(case for case in CASES[group] if text in case)


DEVIATIONS: dict[str, tuple[Any, str]] = {
    _case("hmac", "sha3-256"): (
        {
            "error": [
                "TypeError",
                "TypeError",
                "ERR_CRYPTO_INVALID_DIGEST",
                f"Invalid digest: sha3-256: sha3-256 is not in this sandbox, which has {HASH_LIST}",
            ]
        },
        "SHA-3 is OpenSSL's in Node; the sandbox has MD5 and the SHA-1 and SHA-2 family",
    ),
}


def as_here(outcome: Any) -> Any:
    """Node's outcome with Buffer read as Uint8Array when the sandbox has no buffer module yet."""
    if HAS_BUFFER:
        return outcome
    if isinstance(outcome, dict):
        return {
            key: ("Uint8Array" if key == "type" and value == "Buffer" else as_here(value))
            for key, value in outcome.items()
        }
    if isinstance(outcome, list):
        return [as_here(item) for item in outcome]
    return outcome


@cache
def sandbox_outcomes(group: str) -> list[Any]:
    """The outcomes of a group's cases, run one after another in one fresh isolate with the Node modules."""
    outcome = run_in_fresh_isolate(f"{DESCRIBE}({json.dumps(CASES[group])})", output_cap=OUTPUT_CAP, node=True)
    assert outcome["error"] is None, outcome
    results: list[Any] = json.loads(outcome["result"])
    return results


def _recorded(group: str) -> list[Any]:
    return [pytest.param(group, i, entry["node"], id=f"{group}-{i}") for i, entry in enumerate(FIXTURE[group])]


def test_the_fixture_holds_every_case_recorded_by_node_20() -> None:
    assert FIXTURE["node"].startswith("v20.")
    for group, sources in CASES.items():
        assert [entry["case"] for entry in FIXTURE[group]] == sources, group


@pytest.mark.parametrize(("group", "index", "node"), [p for group in CASES for p in _recorded(group)])
def test_a_case_gives_what_node_20_gives(group: str, index: int, node: Any) -> None:
    case = CASES[group][index]
    expected = DEVIATIONS[case][0] if case in DEVIATIONS else as_here(node)
    assert sandbox_outcomes(group)[index] == expected, case


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
