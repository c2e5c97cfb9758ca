"""The upstream config file: what is read, what is refused, and that secrets stay out of what is shown."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sandbox_server.upstream.config import (
    ServerConfig,
    UpstreamConfigError,
    load_upstream_config,
    parse_upstream_config,
)

ENV = {"TOKEN": "tok-secret-value", "KEY": "key-secret-value", "HOST": "api.example.com"}


def parse(
    servers: dict[str, Any], *, top: str = "mcpServers", environ: dict[str, str] | None = None
) -> list[ServerConfig]:
    return parse_upstream_config({top: servers}, "upstream.json", environ=ENV if environ is None else environ)


def only(servers: dict[str, Any], **kwargs: Any) -> ServerConfig:
    [config] = parse(servers, **kwargs)
    return config


def test_a_claude_desktop_file_gives_stdio_and_http_servers_in_file_order() -> None:
    configs = parse(
        {
            "files": {"command": "npx", "args": ["-y", "server-files", "/tmp"], "env": {"A": "1"}, "cwd": "/srv"},
            "search": {"url": "https://example.com/mcp", "headers": {"X-Api-Key": "abc"}},
        }
    )
    assert [c.name for c in configs] == ["files", "search"]
    files, search = configs
    assert (files.transport, files.command, files.args, dict(files.env), files.cwd) == (
        "stdio", "npx", ("-y", "server-files", "/tmp"), {"A": "1"}, "/srv",
    )  # fmt: skip
    assert (search.transport, search.url, dict(search.headers)) == (
        "http",
        "https://example.com/mcp",
        {"X-Api-Key": "abc"},
    )
    assert files.tools is None and files.side_effects == "refuse"


def test_vs_code_servers_with_a_type_are_read() -> None:
    configs = parse(
        {
            "a": {"type": "stdio", "command": "node", "args": ["a.js"]},
            "b": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
        },
        top="servers",
    )
    assert [(c.name, c.transport) for c in configs] == [("a", "stdio"), ("b", "http")]


def test_other_top_level_keys_of_a_client_settings_file_are_ignored() -> None:
    data = {"globalShortcut": "Ctrl+Space", "mcpServers": {"a": {"command": "x"}}}
    assert [c.name for c in parse_upstream_config(data, "claude_desktop_config.json")] == ["a"]


def test_a_disabled_server_is_left_out() -> None:
    assert parse({"a": {"command": "x", "disabled": True}, "b": {"command": "y", "disabled": False}})[0].name == "b"


def test_keys_other_clients_write_are_accepted_and_change_nothing() -> None:
    config = only({"a": {"command": "x", "autoApprove": ["t"], "alwaysAllow": [], "description": "d"}})
    assert config.tools is None and config.side_effects == "refuse" and config.problem is None
    assert config.ignored == ()


def test_unknown_keys_are_ignored_and_named() -> None:
    config = only({"a": {"command": "x", "someClientSetting": {"x": 1}, "bogus": 1}})
    assert config.problem is None and config.ignored == ("someClientSetting", "bogus")


def test_a_timeout_in_seconds_is_kept_per_server() -> None:
    fast, default = parse({"a": {"command": "x", "timeout": 2.5}, "b": {"command": "y"}})
    assert (fast.timeout_s, default.timeout_s) == (2.5, None)


def test_windsurf_server_url_is_the_url() -> None:
    config = only({"a": {"serverUrl": "https://example.com/mcp"}})
    assert (config.transport, config.url, config.problem) == ("http", "https://example.com/mcp", None)


@pytest.mark.parametrize(
    ("entry", "kind"),
    [
        pytest.param({"type": "sse", "url": "http://h/anything"}, "sse", id="type"),
        pytest.param({"transportType": "sse", "url": "http://h/x"}, "sse", id="cline"),
        pytest.param({"url": "http://h:8080/sse"}, "sse", id="path"),
        pytest.param({"url": "http://h:8080/sse/"}, "sse", id="path-slash"),
        pytest.param({"url": "http://h/mcp"}, "http", id="http"),
        pytest.param({"type": "streamableHttp", "url": "http://h/sse"}, "http", id="type-wins"),
    ],
)
def test_the_legacy_sse_transport_is_chosen_by_type_or_path(entry: dict[str, Any], kind: str) -> None:
    config = only({"a": entry})
    assert (config.transport, config.problem) == (kind, None)


def test_env_file_variables_are_read_relative_to_the_config_file_and_env_wins(tmp_path: Path) -> None:
    (tmp_path / "server.env").write_text("# comment\nAPI_KEY=from-the-file-123\nMODE=file\nexport OTHER='quoted v'\n")
    path = tmp_path / "upstream.json"
    entry = {"command": "x", "envFile": "server.env", "env": {"MODE": "env"}}
    path.write_text(json.dumps({"mcpServers": {"a": entry}}), encoding="utf-8")
    [config] = load_upstream_config(path)
    assert dict(config.env) == {"API_KEY": "from-the-file-123", "MODE": "env", "OTHER": "quoted v"}
    assert "from-the-file-123" not in repr(config)
    assert config.redact("the key from-the-file-123 leaked") == "the key *** leaked"


def test_a_missing_env_file_makes_only_its_server_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "upstream.json"
    servers = {"a": {"command": "x", "envFile": "missing.env"}, "b": {"command": "y"}}
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    broken, fine = load_upstream_config(path)
    assert broken.problem is not None and "'envFile'" in broken.problem and "cannot be read" in broken.problem
    assert fine.problem is None


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        pytest.param(
            {"read_query": "allow", "list_tables": "allow", "write_query": "confirm", "*": "refuse"},
            ("refuse", (("read_query", "allow"), ("list_tables", "allow"), ("write_query", "confirm"))),
            id="sqlite-gatekeeper",
        ),
        pytest.param({"get_*": "allow"}, ("refuse", (("get_*", "allow"),)), id="pattern-default-refuse"),
        pytest.param({"*": "confirm"}, ("confirm", ()), id="only-default"),
    ],
)
def test_side_effects_may_name_tools(policy: dict[str, str], expected: tuple[str, Any]) -> None:
    config = only({"a": {"command": "x", "sideEffects": policy}})
    assert (config.side_effects, config.per_tool) == expected


def test_a_named_tool_policy_prefers_the_exact_name_then_the_longest_pattern() -> None:
    config = only(
        {"a": {"command": "x", "sideEffects": {"get_*": "allow", "get_secret*": "refuse", "get_x": "confirm"}}}
    )
    assert [config.named_policy(n) for n in ("get_x", "get_secret_key", "get_y", "put")] == [
        "confirm", "refuse", "allow", None,
    ]  # fmt: skip


def test_disabled_tools_are_hidden_whatever_tools_says() -> None:
    config = only({"a": {"command": "x", "tools": ["get_*"], "disabledTools": ["get_secret"]}})
    assert [config.exposes(n) for n in ("get_a", "get_secret", "put")] == [True, False, False]


def test_tool_patterns_are_case_sensitive_globs() -> None:
    config = only({"a": {"command": "x", "tools": ["get_*", "search"], "sideEffects": "confirm"}})
    assert config.side_effects == "confirm"
    assert [config.exposes(n) for n in ("get_record", "Get_record", "search", "search_all", "delete")] == [
        True, False, True, False, False,
    ]  # fmt: skip


def test_an_empty_tool_list_exposes_nothing() -> None:
    assert not only({"a": {"command": "x", "tools": []}}).exposes("anything")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("${TOKEN}", "tok-secret-value", id="braces"),
        pytest.param("${env:TOKEN}", "tok-secret-value", id="vs-code-env"),
        pytest.param("Bearer ${TOKEN}!", "Bearer tok-secret-value!", id="inside-text"),
        pytest.param("${MISSING:-fallback}", "fallback", id="default"),
        pytest.param("${TOKEN:-fallback}", "tok-secret-value", id="default-unused"),
        pytest.param("$TOKEN", "$TOKEN", id="no-braces-is-literal"),
    ],
)
def test_variables_are_expanded_from_the_environment(value: str, expected: str) -> None:
    config = only({"a": {"command": "x", "args": [value], "env": {"E": value}}})
    assert config.args == (expected,) and config.env["E"] == expected


def test_variables_are_expanded_in_urls_and_headers() -> None:
    config = only({"a": {"url": "https://${HOST}/mcp?key=${KEY}", "headers": {"Authorization": "Bearer ${TOKEN}"}}})
    assert config.url == "https://api.example.com/mcp?key=key-secret-value"
    assert config.headers["Authorization"] == "Bearer tok-secret-value"


def test_a_missing_variable_is_named_and_no_value_is_shown() -> None:
    config = only({"a": {"command": "x", "env": {"T": "${TOKEN}", "U": "${NOT_SET}"}}})
    message = config.problem or ""
    assert "NOT_SET" in message and "'env'" in message
    assert "tok-secret-value" not in message + repr(config)


def test_vs_code_input_variables_make_only_that_server_unavailable_with_the_accepted_forms() -> None:
    vs_code, other = parse(
        {"a": {"url": "https://x/mcp", "headers": {"K": "${input:key}"}}, "b": {"command": "x"}}, top="servers"
    )
    assert vs_code.problem is not None
    assert "${input:key}" in vs_code.problem and "accepted: ${VAR} or ${env:VAR}" in vs_code.problem
    assert other.problem is None and other.command == "x"


def test_the_repr_shows_keys_but_never_secret_values() -> None:
    stdio = only({"a": {"command": "x", "args": ["--token", "${TOKEN}"], "env": {"API_KEY": "${KEY}", "MODE": "fast"}}})
    http = only({"b": {"url": "https://${HOST}/mcp?key=${KEY}", "headers": {"Authorization": "Bearer ${TOKEN}"}}})
    shown = repr(stdio) + repr(http) + str([stdio, http]) + stdio.target + http.target
    for secret in (*ENV.values(), "fast", "Bearer"):
        if secret != "api.example.com":
            assert secret not in shown
    assert "API_KEY" in shown and "MODE" in shown and "Authorization" in shown
    assert http.target == "https://***", "the host came from a variable; the path and the query are dropped"


def test_redact_hides_every_secret_in_any_text() -> None:
    config = only({"a": {"command": "x", "args": ["${TOKEN}"], "env": {"K": "plain-secret"}}})
    assert config.redact("failed with tok-secret-value and plain-secret") == "failed with *** and ***"


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        pytest.param({"type": "websocket", "url": "ws://h"}, ["'type'", "websocket", '"http"', '"sse"'], id="type"),
        pytest.param({"type": "http", "command": "x"}, ["'type'", '"url"'], id="type-mismatch"),
        pytest.param({"command": "x", "url": "http://h/mcp"}, ["'url'", '"command"'], id="both"),
        pytest.param({"url": "http://h/mcp", "serverUrl": "http://h/mcp"}, ["'serverUrl'", '"url"'], id="both-urls"),
        pytest.param({}, ['"command"', '"url"'], id="neither"),
        pytest.param({"command": ""}, ["'command'", "empty"], id="empty-command"),
        pytest.param({"command": "x", "headers": {}}, ["'headers'", "stdio"], id="headers-on-stdio"),
        pytest.param({"url": "http://h/mcp", "envFile": "a.env"}, ["'envFile'", "http"], id="env-file-on-http"),
        pytest.param({"url": "ftp://h/x"}, ["'url'", "http(s)"], id="scheme"),
        pytest.param({"command": "x", "args": "one"}, ["'args'", "list of strings"], id="args"),
        pytest.param({"command": "x", "env": {"K": 5}}, ["'env'", "'K'", "string values"], id="env-value"),
        pytest.param({"command": "x", "sideEffects": "yes"}, ["'sideEffects'", '"refuse"', '"allow"'], id="side"),
        pytest.param({"command": "x", "sideEffects": {"t": "maybe"}}, ["'sideEffects'", "'t'", "maybe"], id="side-map"),
        pytest.param({"command": "x", "tools": ["ok", ""]}, ["'tools'", "empty"], id="empty-pattern"),
        pytest.param({"command": "x", "disabled": "no"}, ["'disabled'", "true"], id="disabled-type"),
        pytest.param({"command": "x", "timeout": "60"}, ["'timeout'", "seconds"], id="timeout-type"),
        pytest.param({"command": "x", "timeout": 0}, ["'timeout'", "above 0"], id="timeout-zero"),
        pytest.param("npx", ["must be an object"], id="not-object"),
    ],
)
def test_a_wrong_server_entry_makes_only_that_server_unavailable_naming_the_key_and_what_is_accepted(
    entry: Any, words: list[str]
) -> None:
    broken, fine = parse({"broken": entry, "fine": {"command": "ok"}})
    assert broken.name == "broken" and broken.problem is not None
    assert "accepted: " in broken.problem or "must be an object" in broken.problem
    for word in words:
        assert word in broken.problem
    assert fine.problem is None and fine.command == "ok"


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("__proto__", id="proto"),
        pytest.param("then", id="then"),
        pytest.param("$x", id="dollar"),
        pytest.param("@@iterator", id="at-at"),
        pytest.param("a" * 101, id="too-long"),
        pytest.param("", id="empty"),
        pytest.param("a\nb", id="newline"),
        pytest.param("a\u202eb", id="bidi"),
        pytest.param(" lead", id="leading-space"),
    ],
)
def test_an_unusable_server_name_makes_only_that_server_unavailable(name: str) -> None:
    broken, fine = parse({name: {"command": "x"}, "fine": {"command": "y"}})
    assert broken.problem is not None and "server name" in broken.problem
    assert fine.problem is None


@pytest.mark.parametrize(
    "name", ["a", "my-server", "files.v2", "A_1", "x" * 100, "my server", "@scope/server", "Ünïcode"]
)
def test_usable_server_names(name: str) -> None:
    config = only({name: {"command": "x"}})
    assert config.name == name and config.problem is None


@pytest.mark.parametrize(
    "data",
    [
        pytest.param([], id="list"),
        pytest.param({}, id="no-servers"),
        pytest.param({"mcpServers": {}, "servers": {}}, id="both"),
        pytest.param({"mcpServers": []}, id="servers-list"),
    ],
)
def test_a_file_without_one_object_of_servers_is_refused(data: object) -> None:
    with pytest.raises(UpstreamConfigError, match=r"^f\.json"):
        parse_upstream_config(data, "f.json", environ={})


def test_an_empty_object_of_servers_means_no_upstreams() -> None:
    assert parse({}) == []


def test_loading_reads_the_file(tmp_path: Path) -> None:
    path = tmp_path / "upstream.json"
    path.write_text(json.dumps({"mcpServers": {"a": {"command": "x"}}}), encoding="utf-8")
    assert [c.name for c in load_upstream_config(path)] == ["a"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        pytest.param(None, ["cannot read"], id="missing"),
        pytest.param('{"mcpServers": {', ["not valid JSON", "line 1"], id="invalid-json"),
        pytest.param(
            '{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}', ["'a'", "twice"], id="duplicate"
        ),
        pytest.param(b"\xff\xfe", ["UTF-8"], id="not-utf8"),
    ],
)
def test_a_file_that_cannot_be_read_is_an_error_naming_it(
    tmp_path: Path, content: str | bytes | None, words: list[str]
) -> None:
    path = tmp_path / "upstream.json"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    with pytest.raises(UpstreamConfigError) as caught:
        load_upstream_config(path)
    assert str(path) in str(caught.value)
    for word in words:
        assert word in str(caught.value)


def test_config_errors_are_value_errors_and_configuration_errors() -> None:
    from sandbox_server.errors import ConfigurationError

    assert issubclass(UpstreamConfigError, ValueError) and issubclass(UpstreamConfigError, ConfigurationError)


def test_configs_are_frozen_and_hashable() -> None:
    config = only({"a": {"command": "x", "env": {"K": "v"}}})
    with pytest.raises(AttributeError):
        config.name = "b"  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.env["K"] = "w"  # type: ignore[index]
    assert hash(config) == hash(only({"a": {"command": "x", "env": {"K": "v"}}}))
