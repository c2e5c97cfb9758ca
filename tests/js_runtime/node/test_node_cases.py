"""The Node modules give the outcomes Node 20 gives (recorded in fixtures/node_modules.json).

Every module's cases run in one fresh isolate; each case is then compared on its own. A few outcomes differ on
purpose; `DEVIATIONS` holds what the sandbox gives instead, and why.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
from node_cases import MODULES, PRINTED
from node_harness import FIXTURE, NODE, node_outcomes, node_printed, sandbox_outcomes, sandbox_printed

RECORDED: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="ascii"))

DEVIATIONS: dict[str, tuple[Any, str]] = {
    "() => typeof path.win32": ({"value": "undefined"}, "the sandbox has only POSIX paths: path.win32 is left out"),
    "()=>typeof buffer.Blob": ({"value": "undefined"}, "Blob and File are not provided"),
    "() => util.format('%j', { a: 1n })": (
        {"value": "[Unserializable: Do not know how to serialize a BigInt]"},
        "the runtime's format (console.log's) shows a value %j cannot serialise instead of throwing",
    ),
    "() => util.inspect({ a: 1 }, { compact: false })": (
        {"value": "{ a: 1 }"},
        "the runtime's inspect has no compact, sorted, getters or numericSeparator options",
    ),
    "() => [util.types.isProxy(new Proxy({}, {})), util.types.isProxy({})]": (
        {"value": [False, False]},
        "code in the language cannot tell a Proxy from its target",
    ),
}

requires_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")


@functools.cache
def outcomes_of(module: str) -> list[Any]:
    prelude, sources = MODULES[module]
    try:
        return sandbox_outcomes(prelude, sources)
    except AssertionError as failure:
        # Every case of the module fails with the reason, which is worked out only once.
        return [{"not run": str(failure)}] * len(sources)


def _recorded_cases() -> list[Any]:
    return [
        pytest.param(module, index, entry["case"], entry["node"], id=f"{module}-{index}")
        for module in MODULES
        for index, entry in enumerate(RECORDED[module])
    ]


def _json(value: Any) -> str:
    # Key order counts: Node's objects list their properties in a fixed order.
    return json.dumps(value, ensure_ascii=True)


def test_the_fixture_holds_every_case_recorded_by_node_20() -> None:
    assert RECORDED["node"].startswith("v20.")
    for module, (_, sources) in MODULES.items():
        assert [entry["case"] for entry in RECORDED[module]] == sources, module
    assert [entry["program"] for entry in RECORDED["printed"]] == PRINTED


@pytest.mark.parametrize(("module", "index", "case", "node"), _recorded_cases())
def test_a_case_gives_what_node_20_gives(module: str, index: int, case: str, node: Any) -> None:
    expected = DEVIATIONS[case][0] if case in DEVIATIONS else node
    assert _json(outcomes_of(module)[index]) == _json(expected)


@pytest.mark.parametrize(
    "entry", [pytest.param(entry, id=f"printed-{index}") for index, entry in enumerate(RECORDED["printed"])]
)
def test_a_program_prints_what_node_20_prints(entry: dict[str, str]) -> None:
    assert sandbox_printed(entry["program"]) == {"stdout": entry["stdout"], "stderr": entry["stderr"]}


def test_each_deviation_names_a_recorded_case_where_node_differs() -> None:
    recorded = {entry["case"]: entry["node"] for module in MODULES for entry in RECORDED[module]}
    for case, (ours, reason) in DEVIATIONS.items():
        assert case in recorded, case
        assert recorded[case] != ours, case
        assert reason


@requires_node
@pytest.mark.parametrize("module", list(MODULES))
def test_the_recorded_outcomes_are_what_node_gives_now(module: str) -> None:
    prelude, sources = MODULES[module]
    assert node_outcomes(prelude, sources) == [entry["node"] for entry in RECORDED[module]]


@requires_node
def test_the_recorded_printed_output_is_what_node_prints_now() -> None:
    assert [node_printed(program) for program in PRINTED] == [
        {"stdout": entry["stdout"], "stderr": entry["stderr"]} for entry in RECORDED["printed"]
    ]
