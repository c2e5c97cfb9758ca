"""``tools.$search``: ranking by words of names, titles, servers and descriptions; call expressions."""

from __future__ import annotations

import pytest

from sandbox_server.upstream.catalog import ToolInfo, is_identifier
from sandbox_server.upstream.search import MAX_SUMMARY, call_expression, search, summary

TOOLS = [
    ToolInfo("github", "search_issues", "Search issues", "Search issues and pull requests. Uses the search API."),
    ToolInfo("github", "get_issue", None, "Get one issue by number."),
    ToolInfo("github", "createPullRequest", None, "Open a pull request."),
    ToolInfo("filesystem", "read_file", "Read file", "Read the complete contents of a file."),
    ToolInfo("filesystem", "list-directory", None, "List the entries of a directory."),
    ToolInfo("my-server", "get-item", None, "Fetch an item."),
    ToolInfo("calendar", "find_events", None, "Find events between two dates; also searches recurring ones."),
]


def names(query: str, **options: int) -> list[str]:
    return [f"{hit['server']}.{hit['name']}" for hit in search(TOOLS, query, **options)]


def test_an_empty_query_or_a_star_lists_every_tool_by_server_then_name() -> None:
    every = sorted(f"{tool.server}.{tool.name}" for tool in TOOLS)
    assert names("") == names("*") == names("  ") == every
    assert names("*", limit=2) == every[:2]


def test_a_word_in_the_name_ranks_above_the_same_word_in_a_description() -> None:
    assert names("search")[:2] == ["github.search_issues", "calendar.find_events"]


def test_plurals_and_case_and_camel_case_are_the_same_word() -> None:
    assert set(names("Issues")[:2]) == {"github.get_issue", "github.search_issues"}
    assert names("Issues") == names("issue") == names("ISSUE")
    assert names("pull request")[0] == "github.createPullRequest"
    assert names("CREATE")[0] == "github.createPullRequest"
    assert names("directories")[0] == "filesystem.list-directory"


def test_a_tool_matching_every_word_ranks_above_one_matching_some() -> None:
    assert names("read file")[0] == "filesystem.read_file"
    assert names("github issue number")[0] == "github.get_issue"


def test_the_server_name_is_matched_too() -> None:
    assert set(names("filesystem")) == {"filesystem.read_file", "filesystem.list-directory"}


def test_a_query_naming_one_tool_puts_it_first() -> None:
    assert names("github.get_issue")[0] == "github.get_issue"
    assert names("get-item")[0] == "my-server.get-item"
    assert names('tools["my-server"]["get-item"]')[0] == "my-server.get-item"
    assert names("tools.github.search_issues")[0] == "github.search_issues"


def test_a_word_start_of_three_letters_matches_but_counts_less() -> None:
    assert names("dir")[0] == "filesystem.list-directory"
    assert names("ev") == []


def test_nothing_matches_an_unknown_word() -> None:
    assert names("kubernetes") == []


def test_the_limit_bounds_the_hits() -> None:
    assert len(search(TOOLS, "*", limit=3)) == 3
    assert search(TOOLS, "*", limit=0) == []
    assert search(TOOLS, "issue", limit=-1) == []


def test_the_order_does_not_depend_on_the_order_of_the_tools() -> None:
    for query in ("", "get", "issue", "file read", "search"):
        assert search(TOOLS, query) == search(list(reversed(TOOLS)), query)


def test_a_hit_has_a_one_line_description_and_the_call_expression() -> None:
    hit = search(TOOLS, "search issues")[0]
    assert hit == {
        "server": "github",
        "name": "search_issues",
        "title": "Search issues",
        "description": "Search issues and pull requests.",
        "call": "tools.github.search_issues",
    }
    assert "title" not in search(TOOLS, "get-item")[0]
    assert search(TOOLS, "get-item")[0]["call"] == 'tools["my-server"]["get-item"]'


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        pytest.param("One. Two.", "One.", id="first-sentence"),
        pytest.param("Line one\nstill one. Next.", "Line one still one.", id="lines-joined"),
        pytest.param(None, "", id="none"),
        pytest.param("x" * 500, "x" * (MAX_SUMMARY - 1) + "…", id="long"),
        pytest.param("v1.2 is here. Next", "v1.2 is here.", id="dot-inside-word"),
    ],
)
def test_a_summary_is_the_first_sentence_on_one_line(description: str | None, expected: str) -> None:
    assert summary(description) == expected


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        pytest.param("github", "search_issues", "tools.github.search_issues", id="identifiers"),
        pytest.param("my-server", "get-item", 'tools["my-server"]["get-item"]', id="kebab"),
        pytest.param("fs", "delete", 'tools.fs["delete"]', id="reserved-word"),
        pytest.param("fs", "await", 'tools.fs["await"]', id="await"),
        pytest.param("fs", "undefined", "tools.fs.undefined", id="undefined-is-a-name"),
        pytest.param("v2", "2fa", 'tools.v2["2fa"]', id="digit-first"),
        pytest.param("a.b", "c", 'tools["a.b"].c', id="dot"),
        pytest.param("$jq", "_x", "tools.$jq._x", id="dollar-underscore"),
        pytest.param("café", "ünïcode", "tools.café.ünïcode", id="unicode-letters"),
        pytest.param("s", "a b", 'tools.s["a b"]', id="space"),
        pytest.param("s", "", 'tools.s[""]', id="empty"),
        pytest.param("s", 'q"\n*/', 'tools.s["q\\"\\n*\\/"]', id="quote-newline-comment-end"),
        pytest.param("s", "\u2028", 'tools.s["\\u2028"]', id="line-separator"),
    ],
)
def test_a_call_expression_uses_dots_for_identifiers_and_brackets_otherwise(
    server: str, tool: str, expected: str
) -> None:
    assert call_expression(server, tool) == expected


def test_an_identifier_is_what_javascript_accepts_after_a_dot_minus_reserved_words() -> None:
    assert all(is_identifier(name) for name in ["a", "_", "$", "a1", "ÿ", "名前", "let_", "Let"])
    assert not any(is_identifier(name) for name in ["", "1a", "a-b", "a.b", "class", "yield", "let", "a b", "\u2028"])
