"""TypeScript declarations of upstream tools: exact text for common schemas, valid TypeScript for any schema."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import mcp_types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox_server.upstream.catalog import ToolInfo
from sandbox_server.upstream.declarations import (
    RESULT_WITHOUT_SCHEMA,
    TOOL_CONTENT,
    declaration,
    declarations,
    type_of,
)
from tests.upstream import realistic
from tests.upstream.typescript_check import compiler_available, syntax_errors, type_errors


def tool(input_schema: object = None, output_schema: object = None, **fields: Any) -> ToolInfo:
    values: dict[str, Any] = {"server": "github", "name": "search_issues"}
    values.update(fields)
    return ToolInfo(input_schema=input_schema, output_schema=output_schema, **values)


def assert_typescript(text: str) -> None:
    assert syntax_errors(text) == [], text


def test_a_common_tool_is_declared_as_a_function_with_its_documentation() -> None:
    info = tool(
        {
            "type": "object",
            "properties": {
                "q": {"type": "string", "description": "Query text."},
                "limit": {"type": "integer", "description": "At most this many.", "default": 30},
                "state": {"enum": ["open", "closed"]},
            },
            "required": ["q"],
        },
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"id": {"type": "integer"}, "title": {"type": "string"}},
                        "required": ["id", "title"],
                    },
                },
                "total": {"type": "integer"},
            },
            "required": ["items", "total"],
        },
        description="Search issues by text.",
        annotations={"readOnlyHint": True},
    )
    assert declaration(info) == (
        "/**\n"
        " * Search issues by text.\n"
        " * tools.github.search_issues(args): read-only\n"
        " */\n"
        "declare function search_issues(args: {\n"
        "  /** Query text. */\n"
        "  q: string;\n"
        "  /** At most this many (default 30). */\n"
        "  limit?: number;\n"
        '  state?: "open" | "closed";\n'
        "}): Promise<{ items: { id: number; title: string }[]; total: number }>;"
    )


def test_a_text_tool_without_output_schema_is_declared_as_its_text_or_the_parsed_json_without_boilerplate() -> None:
    text = declaration(tool({"type": "object", "properties": {}}, name="get-item", server="my-server"))
    assert text == (
        '/** tools["my-server"]["get-item"](args) */\n'
        "declare function get_item(args?: Record<string, unknown>): Promise<string | object>;"
    )
    assert " ".join(RESULT_WITHOUT_SCHEMA.split()[:6]) not in text


def test_a_tool_that_says_it_gives_images_is_declared_as_returning_tool_content() -> None:
    text = declaration(tool({"type": "object"}, name="screenshot", description="Takes a screenshot image."))
    assert "): Promise<ToolContent>;" in text
    assert text.endswith(TOOL_CONTENT)


@pytest.mark.parametrize(
    ("access", "note"),
    [
        pytest.param("confirm", "asks the user before each call", id="confirm"),
        pytest.param("refuse", "refused by the user's policy", id="refuse"),
        pytest.param("call", None, id="call"),
    ],
)
def test_the_declaration_says_what_the_policy_does_with_the_tool(access: str, note: str | None) -> None:
    text = declaration(replace(tool({"type": "object"}, name="write_query"), access=access))
    first = text.split("*/")[0]
    assert (note in first) if note else ("user" not in first)


def test_a_tool_is_read_from_the_sdk_type_and_from_the_wire_dict_alike() -> None:
    wire = realistic.SEARCH_ISSUES
    sdk = mcp_types.Tool.model_validate(wire)
    assert ToolInfo.from_mcp("github", sdk) == ToolInfo.from_mcp("github", wire)
    info = ToolInfo.from_mcp("github", sdk)
    assert (info.title, info.annotations) == ("Search issues", {"readOnlyHint": True, "openWorldHint": True})


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        pytest.param({"type": "integer"}, "number", id="integer"),
        pytest.param({"type": ["string", "null"]}, "string | null", id="type-array"),
        pytest.param({"enum": ["a", 'b"c', 1, None]}, '"a" | "b\\"c" | 1 | null', id="enum"),
        pytest.param({"const": "x*/y"}, '"x*\\/y"', id="const-cannot-close-a-comment"),
        pytest.param({"anyOf": [{"type": "string"}, {"type": "number"}]}, "string | number", id="anyOf"),
        pytest.param({"allOf": [{"$ref": "#/$defs/A"}], "$defs": {"A": {"type": "string"}}}, "string", id="allOf"),
        pytest.param(
            {"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {"type": "number"}}}]},
            "{ a?: string } & { b?: number }",
            id="allOf-objects",
        ),
        pytest.param({"type": "array", "items": {"type": ["string", "number"]}}, "(string | number)[]", id="array"),
        pytest.param({"type": "array"}, "unknown[]", id="array-of-anything"),
        pytest.param(
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "minItems": 1},
            "[string, number?, ...unknown[]]",
            id="tuple-2020-12",
        ),
        pytest.param(
            {"type": "array", "items": [{"type": "string"}], "additionalItems": False, "minItems": 1},
            "[string]",
            id="tuple-draft-07",
        ),
        pytest.param({"type": "object"}, "Record<string, unknown>", id="object"),
        pytest.param({"type": "object", "additionalProperties": False}, "Record<string, never>", id="closed-object"),
        pytest.param(
            {"type": "object", "additionalProperties": {"type": "number"}}, "{ [key: string]: number }", id="map"
        ),
        pytest.param(
            {"properties": {"a": {"type": "string"}}, "patternProperties": {"^x-": {"type": "number"}}},
            "{ a?: string } & { [key: string]: number }",
            id="pattern-properties",
        ),
        pytest.param(
            {"type": "object", "properties": {"my-key": {}, "class": {}, "1": {}}, "required": ["class"]},
            '{ "my-key"?: unknown; class: unknown; "1"?: unknown }',
            id="property-names",
        ),
        pytest.param(True, "unknown", id="true"),
        pytest.param(False, "never", id="false"),
        pytest.param({}, "unknown", id="empty"),
        pytest.param({"type": "string", "nullable": True}, "string | null", id="openapi-nullable"),
        pytest.param(
            {"$ref": "https://example.com/s.json"},
            'unknown /* $ref "https://example.com/s.json" not followed */',
            id="remote-ref",
        ),
        pytest.param(
            {"$ref": "#/$defs/missing"}, 'unknown /* $ref "#/$defs/missing" not followed */', id="dangling-ref"
        ),
        pytest.param(
            {"$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}}, "$ref": "#/$defs/N"},
            "{ next?: unknown /* recursive */ }",
            id="recursion-inlined",
        ),
        pytest.param({"type": "string", "const": 12.5}, "12.5", id="const-number"),
        pytest.param({"const": {"a": [1, True]}}, "{ a: [1, true] }", id="const-object"),
    ],
)
def test_a_schema_becomes_this_type(schema: object, expected: str) -> None:
    assert type_of(schema) == expected
    assert_typescript(f"type T = {expected};")


def test_local_definitions_become_aliases_and_recursion_ends_in_them() -> None:
    text = declaration(ToolInfo.from_mcp("fs", realistic.PYDANTIC_STYLE))
    assert "declare function delete_(args: {\n  node: Node;" in text
    assert 'type Node = {\n  id: string;\n  children?: Node[];\n  /** default "file". */\n  kind?: Kind;\n};' in text
    assert text.endswith('type Kind = "file" | "dir";')
    assert 'tools.fs["delete"](args): destructive' in text


def test_draft_07_definitions_and_pointers_into_properties_are_followed() -> None:
    rpc = declaration(ToolInfo.from_mcp("rpc", realistic.JSON_RPC))
    assert "type Value = string | number | boolean | null | Value[] | Object_;" in rpc
    assert "type Object_ = { [key: string]: Value };" in rpc
    event = declaration(ToolInfo.from_mcp("calendar", realistic.ZOD_STYLE))
    assert "end: Start;" in event
    assert "type Start = {" in event


def test_a_reference_to_the_root_is_an_alias_named_after_the_tool() -> None:
    schema = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}}}
    text = declaration(tool(schema, name="list-tree"))
    assert "declare function list_tree(args?: { children?: ListTreeArgs[] })" in text
    assert "type ListTreeArgs = { children?: ListTreeArgs[] };" in text


def test_a_cycle_of_aliases_that_are_only_each_other_is_cut() -> None:
    text = declaration(tool({"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}))
    assert text.endswith(
        "declare function search_issues(args: A): Promise<string | object>;\n"
        "type A = B;\ntype B = unknown /* recursive */;"
    )


def test_a_server_file_declares_a_definition_shared_by_tools_once_and_renames_a_different_one() -> None:
    item = {"type": "object", "properties": {"id": {"type": "integer"}}}
    other = {"type": "object", "properties": {"key": {"type": "string"}}}
    tools = [
        tool({"$defs": {"Item": item}, "properties": {"a": {"$ref": "#/$defs/Item"}}}, name="first"),
        tool({"$defs": {"Item": item}, "properties": {"b": {"$ref": "#/$defs/Item"}}}, name="second"),
        tool({"$defs": {"Item": other}, "properties": {"c": {"$ref": "#/$defs/Item"}}}, name="third"),
    ]
    text = declarations(tools)
    assert text.count("type Item = { id?: number };") == 1
    assert "declare function second(args?: { b?: Item })" in text
    assert "declare function third(args?: { c?: Item_2 })" in text
    assert "type Item_2 = { key?: string };" in text
    assert text.startswith('/* Tools of the MCP server "github": 3 in all. */')
    assert_typescript(text)


def test_tools_whose_names_become_the_same_function_name_are_told_apart() -> None:
    text = declarations([tool(name="get-item"), tool(name="get_item"), tool(name="get.item")])
    assert [line.split("(")[0] for line in text.splitlines() if line.startswith("declare")] == [
        "declare function get_item",
        "declare function get_item_2",
        "declare function get_item_3",
    ]


def test_descriptions_with_comment_ends_and_line_separators_stay_inside_their_comment() -> None:
    nasty = "Ends */ here\u2028and\rthere\x00 */"
    info = tool(
        {"type": "object", "properties": {"a*/b\n": {"type": "string", "description": nasty}}},
        name="x*/\ny",
        server="s\u2028*/",
        description=nasty,
        title="T */",
    )
    text = declaration(info)
    assert_typescript(text)
    assert "*/ here" not in text
    assert "\u2028" not in text
    assert '"a*\\/b\\n"?: string;' in text


def test_a_long_description_is_cut_and_blank_lines_collapse() -> None:
    text = declaration(tool(description="First.\n\n\n\n" + "word " * 2_000))
    assert "First.\n *\n * word word" in text
    assert len(text) < 3_000
    assert "…" in text


def test_a_huge_enum_shows_its_first_values_and_what_the_rest_are() -> None:
    text = type_of({"enum": [f"v{i}" for i in range(1_000)]})
    assert text.startswith('"v0" | "v1" | ')
    assert text.endswith('"v24" | string /* … 975 more values */')


def test_a_huge_schema_is_cut_to_the_size_limit_with_a_note() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string", "description": "d" * 100} for i in range(300)}}
    text = declaration(tool({"type": "object", "properties": {f"o{i}": wide for i in range(50)}}), max_chars=8_000)
    assert len(text) < 20_000
    assert "more properties */" in text
    assert "/* … truncated: the schemas are larger than this declaration shows" in text
    assert_typescript(text)


def test_deep_nesting_stops_at_the_depth_limit() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5_000):
        schema = {"type": "array", "items": schema}
    text = declaration(tool(schema))
    assert "unknown[][]" in text
    assert "truncated" in text
    assert_typescript(text)


def test_a_server_file_past_its_size_limit_names_how_many_tools_it_leaves_out() -> None:
    many = [tool({"type": "object", "properties": {"x": {"type": "string"}}}, name=f"t{i}") for i in range(100)]
    text = declarations(many, max_file_chars=2_000)
    assert len(text) <= 2_000
    assert text.rstrip().endswith("more tools not shown: the file is at its size limit. */")
    assert_typescript(text)


def test_the_realistic_tools_are_valid_typescript() -> None:
    for wire in realistic.ALL:
        assert_typescript(declaration(ToolInfo.from_mcp("my-server", wire)))
    assert_typescript(declarations([ToolInfo.from_mcp("my-server", wire) for wire in realistic.ALL]))


@pytest.mark.skipif(not compiler_available(), reason="needs node and the typescript npm package")
def test_the_typescript_compiler_finds_no_error_in_the_realistic_tools_or_the_hostile_ones() -> None:
    texts = {
        wire["name"].replace(".", "_").replace("-", "_"): declaration(ToolInfo.from_mcp("s", wire))
        for wire in realistic.ALL
    }
    texts["all"] = declarations([ToolInfo.from_mcp("s", wire) for wire in realistic.ALL])
    texts["hostile"] = declarations([tool(schema, name=f"h{i}") for i, schema in enumerate(HOSTILE)])
    assert type_errors(texts) == {}


HOSTILE: list[object] = [
    {"$ref": "#"},
    {"$ref": "#/$defs/A", "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "string"}]}}},
    {
        "$defs": {"string": {"type": "number"}, "Record": {}, "delete": {}},
        "properties": {
            "a": {"$ref": "#/$defs/string"},
            "b": {"$ref": "#/$defs/Record"},
            "c": {"$ref": "#/$defs/delete"},
        },
    },
    {"type": 12, "properties": [], "required": {"a": 1}, "items": "x", "enum": "no"},
    {"type": "array", "prefixItems": [{"type": ["string", "null"]}], "items": {"anyOf": [{"type": "string"}, {}]}},
    {"properties": {"x": {"$ref": "#/properties/x"}}},
    {"enum": [1e400, float("nan"), 2**70, -0.0, "a" * 500, {"k": {"deep": [1]}}, [], {}]},
    {"type": "object", "properties": {"\ud800": {"description": "\udfff"}}},
    {"anyOf": []},
    {"$ref": 5, "$dynamicRef": "#meta"},
]


@pytest.mark.parametrize("schema", HOSTILE)
def test_a_hostile_schema_still_gives_valid_typescript(schema: object) -> None:
    text = declaration(tool(schema, schema))
    assert_typescript(text)
    text.encode("utf-8")


_KEYWORDS = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "prefixItems",
        "anyOf",
        "oneOf",
        "allOf",
        "enum",
        "const",
        "$ref",
        "$defs",
        "required",
        "additionalProperties",
        "patternProperties",
        "description",
        "default",
        "minimum",
        "format",
    ]
)
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(["string", "object", "array", "null", "integer", "#", "#/$defs/a", "#/properties/x", "*/"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYWORDS | st.text(max_size=6), inner, max_size=5),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(input_schema=_JSON, output_schema=_JSON, name=st.text(max_size=10), description=st.text(max_size=40))
def test_any_json_value_as_schema_gives_valid_typescript(
    input_schema: object, output_schema: object, name: str, description: str
) -> None:
    info = tool(input_schema, output_schema, name=name, server=name, description=description)
    text = declarations([info, info])
    assert_typescript(text)
    assert_typescript(f"type T = {type_of(input_schema)};")
    json.dumps(text)


@pytest.mark.parametrize(
    ("title", "shown"),
    [
        pytest.param("Create Entities", False, id="the-name-spelled-again"),
        pytest.param("create-entities", False, id="the-name-with-other-separators"),
        pytest.param("Create Entities Tool", True, id="a-word-more"),
        pytest.param("Add people to the graph", True, id="other-words"),
    ],
)
def test_a_title_that_only_spells_the_name_again_is_left_out(title: str, shown: bool) -> None:
    text = declaration(tool(name="create_entities", title=title, description="Create entities in the graph."))
    assert (title in text) is shown
    assert "Create entities in the graph." in text
