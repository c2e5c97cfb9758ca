"""An upstream schema's regular expressions against strings the running code chooses: a pattern that would make
Python's ``re`` backtrack for hours is matched within a budget, off the event loop, and the server's own schemas
are checked as before."""

from __future__ import annotations

import re

import pytest

from sandbox_server.upstream import patterns
from sandbox_server.upstream.schemas import SchemaCheck
from sandbox_server.validation import ArgumentValidator

# ^(a|a?)+$ on forty a's and a bang: about 2**40 steps for Python's re.
EVIL = "^(a|a?)+$"
VICTIM = "a" * 40 + "!"


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "schema, value",
    [
        ({"type": "object", "properties": {"q": {"type": "string", "pattern": EVIL}}}, {"q": VICTIM}),
        ({"type": "object", "patternProperties": {EVIL: {"type": "integer"}}}, {VICTIM: 1}),
        ({"type": "object", "patternProperties": {EVIL: {}}, "additionalProperties": False}, {VICTIM: 1}),
        ({"type": "object", "propertyNames": {"pattern": EVIL}}, {VICTIM: 1}),
        ({"type": "array", "items": {"type": "string", "pattern": EVIL}}, [VICTIM] * 50),
    ],
)
def test_a_catastrophic_pattern_is_matched_within_the_budget(schema: dict[str, object], value: object) -> None:
    check = SchemaCheck.build(schema)
    assert check is not None and check.unusable_reason is None
    problems = check.problems(value)
    # Whatever the verdict, it comes back: with re this call would not return for hours.
    assert isinstance(problems, list)


def test_a_check_past_its_budget_is_refused_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox_server.upstream.schemas as schemas

    monkeypatch.setattr(schemas, "CHECK_BUDGET_S", 0.0)
    check = SchemaCheck.build({"type": "string", "pattern": "^a+$"})
    assert check is not None
    assert check.problems("aaa") == [
        "args: could not be checked against the tool's schema within 0 s (one of its patterns takes too long on "
        "this value)"
    ]


def test_without_a_budget_patterns_match_as_re_does() -> None:
    patterns.install()
    validator = ArgumentValidator({"type": "object", "properties": {"x": {"type": "string", "pattern": "^[0-9]+$"}}})
    assert validator.problems({"x": "123"}) == []
    assert validator.problems({"x": "12a"}) != []
    import jsonschema._keywords

    assert jsonschema._keywords.re.search("b", "abc") is not None  # type: ignore[attr-defined]
    assert jsonschema._keywords.re.compile is re.compile  # type: ignore[attr-defined]
