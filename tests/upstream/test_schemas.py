"""Checks of arguments and results against upstream schemas: messages a model can act on, hostile schemas survived."""

from __future__ import annotations

import logging
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from sandbox_server.upstream.schemas import MAX_MESSAGE, SchemaCheck
from tests.upstream import realistic


def check(schema: object, **options: Any) -> SchemaCheck:
    built = SchemaCheck.build(schema, **options)
    assert built is not None
    return built


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a URL or a socket fails the test."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)


SEARCH = realistic.SEARCH_ISSUES["inputSchema"]


def test_no_schema_means_no_check() -> None:
    assert SchemaCheck.build(None) is None


def test_valid_arguments_have_no_problems() -> None:
    assert check(SEARCH).problems({"q": "bug", "per_page": 10, "page": None}) == []


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        pytest.param({"q": "x", "per_page": -1}, "args.per_page: -1 is less than the minimum of 1", id="minimum"),
        pytest.param(
            {"q": "x", "per_page": 101}, "args.per_page: 101 is greater than the maximum of 100", id="maximum"
        ),
        pytest.param(
            {"q": "x", "per_page": "ten"}, 'args.per_page: expected an integer, got the string "ten"', id="type"
        ),
        pytest.param({"q": "x", "page": 1.5}, "args.page: expected an integer or null, got 1.5", id="type-array"),
        pytest.param({}, 'args: missing required property "q"', id="required"),
        pytest.param({"q": ""}, "args.q: has 0 characters, at least 1 expected", id="minLength"),
        pytest.param({"q": "x", "order": "up"}, 'args.order: the string "up" is not one of "asc", "desc"', id="enum"),
        pytest.param(
            {"q": "x", "query": "y"},
            'args: unexpected property "query"; the accepted ones are: q, sort, order, per_page, page',
            id="additional",
        ),
        pytest.param([], "args: expected an object, got an array of 0 items []", id="not-an-object"),
    ],
)
def test_each_problem_says_where_what_and_what_is_accepted(arguments: object, expected: str) -> None:
    assert check(SEARCH).problems(arguments) == [expected]


def test_nested_paths_follow_javascript_access_and_refs_are_followed() -> None:
    schema = realistic.JSON_RPC["inputSchema"]
    problems = check(schema).problems(
        {"requests": [{"jsonrpc": "2.0", "method": "a"}, {"jsonrpc": "1.0", "method": 5}]}
    )
    assert problems == [
        'args.requests[1].jsonrpc: expected "2.0", got the string "1.0"',
        "args.requests[1].method: expected a string, got 5",
    ]
    keyed = check({"properties": {"my-key": {"properties": {"n": {"type": "number"}}}}})
    assert keyed.problems({"my-key": {"n": "1"}}) == ['args["my-key"].n: expected a number, got the string "1"']


def test_a_union_reports_the_problem_in_the_form_the_value_is_closest_to() -> None:
    schema = {"properties": {"when": {"anyOf": [{"type": "string", "minLength": 3}, {"type": "null"}]}}}
    assert check(schema).problems({"when": "ab"}) == ["args.when: has 2 characters, at least 3 expected"]
    assert check(schema).problems({"when": 5}) == ["args.when: expected a string or null, got 5"]


def test_problems_are_ordered_by_place_and_capped_with_a_count_of_the_rest() -> None:
    schema = {"type": "array", "items": {"type": "integer"}}
    problems = check(schema).problems([f"{i}" for i in range(12)], limit=3)
    assert problems == [
        'args[0]: expected an integer, got the string "0"',
        'args[1]: expected an integer, got the string "1"',
        'args[2]: expected an integer, got the string "2"',
        "… and 9 more problems",
    ]
    assert len(check(schema).problems(["x"] * 1_000)) == 6
    assert check(schema).problems(["x"] * 1_000)[-1] == "… and more problems"


def test_long_values_are_cut_in_messages() -> None:
    problems = check({"type": "integer"}, root="result").problems("x" * 10_000)
    assert len(problems) == 1
    assert len(problems[0]) < 120
    assert problems[0].startswith('result: expected an integer, got the string "xxxx')
    huge = check({"enum": ["a" * 1_000] * 50}).problems("b")
    assert len(huge[0]) <= MAX_MESSAGE


def test_a_remote_ref_is_never_fetched_and_accepts_anything(no_network: None) -> None:
    schema = {
        "properties": {
            "remote": {"$ref": "https://example.com/schemas/thing.json"},
            "file": {"$ref": "file:///etc/passwd"},
            "relative": {"$ref": "other.json"},
            "n": {"type": "integer"},
        }
    }
    built = check(schema)
    assert built.unusable_reason is None
    assert built.problems({"remote": 1, "file": "x", "relative": [], "n": "1"}) == [
        'args.n: expected an integer, got the string "1"'
    ]


def test_a_remote_ref_into_a_document_makes_the_check_accept_everything_without_fetching(
    no_network: None, caplog: pytest.LogCaptureFixture
) -> None:
    built = check({"properties": {"a": {"$ref": "https://example.com/s.json#/$defs/a"}}})
    with caplog.at_level(logging.WARNING, logger="sandbox_server.upstream"):
        assert built.problems({"a": 1}) == []
    assert built.unusable_reason == 'a $ref does not resolve ("/$defs/a")'
    assert built.problems({"a": 1}) == []
    assert len(caplog.records) == 1


def test_the_metaschemas_resolve_locally(no_network: None) -> None:
    built = check({"$ref": "https://json-schema.org/draft/2020-12/schema"})
    assert built.problems({"type": 5}) != []


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        pytest.param({"type": "nope"}, 'invalid schema at ["type"]', id="bad-type"),
        pytest.param({"minimum": "1"}, 'invalid schema at ["minimum"]', id="bad-minimum"),
        pytest.param({"$ref": "#"}, "the schema refers to itself without end", id="ref-loop"),
        pytest.param({"$ref": "#/$defs/missing"}, 'a $ref does not resolve ("/$defs/missing")', id="dangling-ref"),
        pytest.param([1, 2], "the schema is a JSON list, not an object", id="list"),
        pytest.param("string", "the schema is a JSON str, not an object", id="string"),
    ],
)
def test_an_invalid_schema_accepts_everything_and_says_why_once(
    schema: object, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="sandbox_server.upstream"):
        built = check(schema)
        again = check(schema)
    assert built.unusable_reason is not None
    assert built.unusable_reason.startswith(reason)
    assert built.problems({"anything": [1]}) == []
    assert again.unusable_reason == built.unusable_reason
    assert len([record for record in caplog.records if reason in record.getMessage()]) <= 1


def test_a_deeply_nested_schema_or_value_does_not_crash() -> None:
    schema: dict[str, Any] = {}
    for _ in range(5_000):
        schema = {"items": schema}
    assert check(schema).unusable_reason is not None
    value: list[Any] = []
    for _ in range(5_000):
        value = [value]
    recursive = check({"$defs": {"a": {"type": "array", "items": {"$ref": "#/$defs/a"}}}, "$ref": "#/$defs/a"})
    assert recursive.problems(value) == ["args: nested too deeply to check"]


def test_the_declared_draft_is_honoured() -> None:
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "maximum": 5, "exclusiveMaximum": True}
    assert check(draft4).problems(5) == ["args: 5 is greater than the maximum of 5"]
    assert check(draft4).problems(4) == []
    # In 2020-12 the same keywords mean otherwise: a boolean exclusiveMaximum is an invalid schema.
    assert check({"maximum": 5, "exclusiveMaximum": True}).unusable_reason is not None
    unknown = check({"$schema": "https://example.com/my-draft", "type": "string"})
    assert unknown.problems(1) == ["args: expected a string, got 1"]


@pytest.mark.parametrize(
    ("format_name", "bad", "good"),
    [
        pytest.param("date", "2024-13-01", "2024-02-29", id="date"),
        pytest.param("uuid", "not-a-uuid", "123e4567-e89b-12d3-a456-426614174000", id="uuid"),
        pytest.param("ipv4", "256.1.1.1", "10.0.0.1", id="ipv4"),
        pytest.param("email", "nobody", "a@b.example", id="email"),
    ],
)
def test_cheap_formats_are_asserted(format_name: str, bad: str, good: str) -> None:
    built = check({"format": format_name})
    assert built.problems(good) == []
    assert built.problems(bad) == [f'args: the string "{bad}" is not a valid {format_name}']


@pytest.mark.parametrize("format_name", ["date-time", "uri", "regex", "hostname", "my-own-format"])
def test_other_formats_are_annotations(format_name: str) -> None:
    assert check({"format": format_name}).problems("(((not anything valid") == []


def test_results_are_checked_with_their_own_root_name() -> None:
    schema = realistic.SEARCH_ISSUES["outputSchema"]
    built = check(schema, root="result")
    assert built.problems({"total_count": 1, "items": [{"number": 1, "title": "t", "state": "done"}]}) == [
        'result.items[0].state: the string "done" is not one of "open", "closed"'
    ]


def test_boolean_schemas_accept_all_or_nothing() -> None:
    assert check(True).problems({"a": 1}) == []
    assert check(False).problems(1) == ["args: no value is allowed here, got 1"]


def test_a_file_reference_is_not_read(tmp_path: Path, no_network: None) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text('{"type": "integer"}')
    built = check({"$ref": secret.as_uri()})
    assert built.problems("not an integer") == []
