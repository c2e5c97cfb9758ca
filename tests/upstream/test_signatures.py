"""The compact signatures of the description: one argument object, the result's type, repeated object types named
once per server, and a server whose tools are another's named with it."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox_server.upstream.catalog import ToolInfo
from sandbox_server.upstream.shared_types import MIN_CHARS, name_repeated
from sandbox_server.upstream.signatures import TEXT_RESULT, signature

ENTITY = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "entityType": {"type": "string"}, "observations": {"type": "array"}},
    "required": ["name", "entityType", "observations"],
}


def _tool(input_schema: Any, output_schema: Any = None, name: str = "t", description: str = "") -> ToolInfo:
    return ToolInfo("s", name, description=description, input_schema=input_schema, output_schema=output_schema)


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        pytest.param({"type": "object", "properties": {}}, "t(): string | object", id="no-arguments"),
        pytest.param(
            {"type": "object", "properties": {"a": {"type": "number"}}, "required": ["a"]},
            "t({a: number}): string | object",
            id="required",
        ),
        pytest.param(
            {"type": "object", "properties": {"a": {"type": "number"}}},
            "t({a?: number}): string | object",
            id="optional",
        ),
    ],
)
def test_a_signature_shows_the_argument_object_and_a_text_result_as_text_or_parsed_json(
    schema: dict[str, Any], expected: str
) -> None:
    assert signature(_tool(schema), "t") == expected
    assert TEXT_RESULT == "string | object"


def test_an_object_type_repeated_across_a_servers_signatures_is_named_once_after_its_property() -> None:
    entities = {"type": "object", "properties": {"entities": {"type": "array", "items": ENTITY}}}
    lines = [signature(_tool(entities, entities), "create"), signature(_tool({"type": "object"}, entities), "read")]
    types, named = name_repeated(lines)
    assert types == ["type Entity = {name: string, entityType: string, observations: unknown[]}"]
    assert named == ["create({entities?: Entity[]}): {entities?: Entity[]}", "read(): {entities?: Entity[]}"]


def test_a_type_seen_once_or_shorter_than_the_threshold_stays_written_out() -> None:
    short = "f({a: {x: number}}): {a: {x: number}}"
    assert len("{x: number}") < MIN_CHARS
    assert name_repeated([short]) == ([], [short])
    once = "g({big: {alpha: number, beta: number, gamma: string}}): string"
    assert name_repeated([once]) == ([], [once])


def test_a_name_never_shadows_a_word_of_the_listing_or_a_typescript_type() -> None:
    body = "{id: number, name: string, status: string, amount: number}"
    lines = [f"a({{record: {body}}}): {{record: {body}}}", "b({Record: number, RecordType: string}): string"]
    types, named = name_repeated(lines)
    assert types == [f"type RecordType2 = {body}"]
    assert named[0] == "a({record: RecordType2}): {record: RecordType2}"


def test_braces_inside_string_literals_are_not_types() -> None:
    line = 'f({q: "{a: number, b: number, c: number}"}): {q: "{a: number, b: number, c: number}"}'
    assert name_repeated([line]) == ([], [line])


def test_a_result_many_signatures_share_is_named_once_when_that_is_shorter() -> None:
    lines = [f"{name}({{path: string}}): {{content: string}}" for name in ("read_file", "write_file", "list_directory")]
    types, named = name_repeated([*lines, "move_file({source: string}): {content: string}"])
    assert types == ["type Result = {content: string}"]
    assert named == [
        "read_file({path: string}): Result",
        "write_file({path: string}): Result",
        "list_directory({path: string}): Result",
        "move_file({source: string}): Result",
    ]


def test_a_shared_result_is_named_after_the_first_word_its_tools_share() -> None:
    status = "{success: boolean, message: string}"
    lines = [f"delete_{what}({{names: string[]}}): {status}" for what in ("entities", "relations", "observations")]
    types, named = name_repeated(lines)
    assert types == [f"type DeleteResult = {status}"]
    assert named[0] == "delete_entities({names: string[]}): DeleteResult"


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(["a(): {x: number}", "b(): {x: number}"], id="too-short-to-pay"),
        pytest.param(["a(): {content: string}", "b(): string"], id="once"),
        pytest.param(["a({q: {content: string}}): string", "b({q: {content: string}}): string"], id="arguments"),
    ],
)
def test_a_result_that_naming_would_not_shorten_stays_written_out(lines: list[str]) -> None:
    assert name_repeated(lines) == ([], lines)


def test_a_result_name_never_shadows_a_word_of_the_listing() -> None:
    lines = [f"{name}(): {{content: string}}" for name in ("read", "write", "move", "list")]
    types, named = name_repeated([*lines, "g({Result: number}): string"])
    assert types == ["type Result2 = {content: string}"] and named[0] == "read(): Result2"
