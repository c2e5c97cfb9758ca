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
    config = only({"a": {"command": "x", "timeout": 60, "autoApprove": ["t"], "alwaysAllow": [], "description": "d"}})
    assert config.tools is None and config.side_effects == "refuse"


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
    with pytest.raises(UpstreamConfigError) as caught:
        parse({"a": {"command": "x", "env": {"T": "${TOKEN}", "U": "${NOT_SET}"}}})
    message = str(caught.value)
    assert "NOT_SET" in message and "'a'" in message and "'env'" in message and "upstream.json" in message
    assert "tok-secret-value" not in message


def test_vs_code_input_variables_are_refused_with_the_accepted_forms() -> None:
    with pytest.raises(UpstreamConfigError, match=r"\$\{input:key\}.*accepted: \$\{VAR\} or \$\{env:VAR\}"):
        parse({"a": {"url": "https://x/mcp", "headers": {"K": "${input:key}"}}})


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
    ("servers", "words"),
    [
        pytest.param(
            {"a": {"command": "x", "bogus": 1}}, ["'a'", "'bogus'", "not a known key", "command"], id="unknown"
        ),
        pytest.param({"a": {"command": "x", "disabledTools": []}}, ["'disabledTools'", '"tools"'], id="refused"),
        pytest.param({"a": {"url": "http://h/mcp", "type": "sse"}}, ["'type'", "sse", "not supported"], id="sse"),
        pytest.param({"a": {"type": "websocket", "url": "ws://h"}}, ["'type'", "websocket", '"http"'], id="type"),
        pytest.param({"a": {"type": "http", "command": "x"}}, ["'type'", '"url"'], id="type-mismatch"),
        pytest.param({"a": {"command": "x", "url": "http://h/mcp"}}, ["'url'", '"command"'], id="both"),
        pytest.param({"a": {}}, ["'a'", '"command"', '"url"'], id="neither"),
        pytest.param({"a": {"command": ""}}, ["'command'", "empty"], id="empty-command"),
        pytest.param({"a": {"command": "x", "headers": {}}}, ["'headers'", "stdio"], id="headers-on-stdio"),
        pytest.param({"a": {"url": "ftp://h/x"}}, ["'url'", "http(s)"], id="scheme"),
        pytest.param({"a": {"command": "x", "args": "one"}}, ["'args'", "list of strings"], id="args"),
        pytest.param({"a": {"command": "x", "env": {"K": 5}}}, ["'env'", "'K'", "string values"], id="env-value"),
        pytest.param(
            {"a": {"command": "x", "sideEffects": "yes"}}, ["'sideEffects'", '"refuse"', '"allow"'], id="side"
        ),
        pytest.param({"a": {"command": "x", "tools": ["ok", ""]}}, ["'tools'", "empty"], id="empty-pattern"),
        pytest.param({"a": {"command": "x", "disabled": "no"}}, ["'disabled'", "true"], id="disabled-type"),
        pytest.param({"a": "npx"}, ["'a'", "must be an object"], id="not-object"),
        pytest.param({"my server": {"command": "x"}}, ["'my server'", "1 to 64"], id="space"),
        pytest.param({"$x": {"command": "x"}}, ["'$x'"], id="dollar"),
        pytest.param({"a" * 65: {"command": "x"}}, ["1 to 64"], id="too-long"),
        pytest.param({"__proto__": {"command": "x"}}, ["__proto__"], id="proto"),
    ],
)
def test_a_wrong_server_entry_is_an_error_naming_file_server_key_and_what_is_accepted(
    servers: dict[str, Any], words: list[str]
) -> None:
    with pytest.raises(UpstreamConfigError) as caught:
        parse(servers)
    message = str(caught.value)
    assert message.startswith("upstream.json: ")
    assert "accepted: " in message
    for word in words:
        assert word in message


@pytest.mark.parametrize("name", ["a", "my-server", "files.v2", "A_1", "x" * 64])
def test_usable_server_names(name: str) -> None:
    assert only({name: {"command": "x"}}).name == name


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
