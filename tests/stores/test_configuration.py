"""``SANDBOX_STATE_STORE`` / ``--state-store``: what it accepts, and a server that refuses to start, naming the
variable, when the value names no store or a shared store has no shared keys."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from sandbox_server import Settings
from sandbox_server.errors import ConfigurationError
from sandbox_server.journal import open_store
from sandbox_server.store_location import parse_store_url

from ..servers import server_env

COMMAND = [sys.executable, "-m", "sandbox_server", "serve", "--transport", "http", "--port", "0"]


def serve(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, env=server_env(**env), timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("text", "kind", "shown"),
    [
        pytest.param("memory", "memory", "memory", id="memory"),
        pytest.param(" memory ", "memory", "memory", id="memory-padded"),
        pytest.param("sqlite:///tmp/state.db", "sqlite", "sqlite:///tmp/state.db", id="sqlite-absolute"),
        pytest.param("sqlite:////tmp/state.db", "sqlite", "sqlite:///tmp/state.db", id="sqlite-four-slashes"),
        pytest.param("redis://127.0.0.1:6380/2", "redis", "redis://127.0.0.1:6380/2", id="redis"),
        pytest.param("redis://cache.internal", "redis", "redis://cache.internal:6379/0", id="redis-defaults"),
        pytest.param("redis://:pw@127.0.0.1:6379/0", "redis", "redis://127.0.0.1:6379/0", id="redis-password-hidden"),
        pytest.param("rediss://user:pw@redis.example:6380/1", "redis", "rediss://redis.example:6380/1", id="tls"),
    ],
)
def test_each_accepted_store_is_read_and_shown_without_its_password(text: str, kind: str, shown: str) -> None:
    location = parse_store_url(text)
    assert (location.kind, location.shown) == (kind, shown)
    assert "pw" not in location.shown


@pytest.mark.parametrize(
    ("text", "says"),
    [
        pytest.param("", "is not a state store", id="empty"),
        pytest.param("postgres://db/x", "is not a state store: use memory, sqlite:///PATH", id="unknown-scheme"),
        pytest.param("sqlite://state.db", "absolute path", id="sqlite-relative"),
        pytest.param("sqlite:///", "names no file", id="sqlite-no-path"),
        pytest.param("sqlite:///no/such/folder/state.db", "does not exist", id="sqlite-missing-folder"),
        pytest.param("sqlite:///tmp", "is a folder", id="sqlite-folder"),
        pytest.param("sqlite:///tmp/x.db?mode=ro", "options are not accepted", id="sqlite-options"),
        pytest.param("redis://", "names no host", id="redis-no-host"),
        pytest.param("redis://127.0.0.1:notaport/0", "is not a Redis URL", id="redis-bad-port"),
        pytest.param("redis://127.0.0.1:6379/zero", "the database after the port is a number", id="redis-bad-db"),
        pytest.param("redis://127.0.0.1:6379/0?ssl=true", "options are not accepted", id="redis-options"),
    ],
)
def test_a_value_that_names_no_store_is_refused_saying_what_is_accepted(text: str, says: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_store_url(text)
    assert says in str(raised.value)
    with pytest.raises(ValidationError):
        Settings(state_store=text)


def test_a_password_in_a_malformed_redis_url_is_never_repeated() -> None:
    with pytest.raises(ValueError) as raised:
        parse_store_url("redis://:hunter2@127.0.0.1:6379/zero")
    assert "hunter2" not in str(raised.value) and "***@127.0.0.1:6379/zero" in str(raised.value)


@pytest.mark.parametrize("text", ["sqlite:///tmp/state.db", "redis://127.0.0.1:6379/0"])
def test_a_shared_store_without_shared_keys_is_refused_naming_the_keys_variable(text: str) -> None:
    with pytest.raises(ConfigurationError, match="SANDBOX_STATE_KEYS is not set") as raised:
        open_store(text, None)
    assert "SANDBOX_STATE_STORE=" in str(raised.value)


def test_the_server_refuses_to_start_with_a_shared_store_and_no_keys(tmp_path: Path) -> None:
    done = serve(SANDBOX_STATE_STORE=f"sqlite://{tmp_path / 'state.db'}")
    assert done.returncode == 2
    assert f"sandbox-server: SANDBOX_STATE_STORE=sqlite://{tmp_path / 'state.db'} shares" in done.stderr
    assert "SANDBOX_STATE_KEYS is not set" in done.stderr
    assert not (tmp_path / "state.db").exists()


@pytest.mark.parametrize(
    ("args", "env", "says"),
    [
        pytest.param(
            ("--state-store", "mongodb://x"),
            {},
            "--state-store: 'mongodb://x' is not a state store: use memory, sqlite:///PATH (an absolute path) or "
            "redis://HOST:PORT/DB",
            id="flag",
        ),
        pytest.param(
            (),
            {"SANDBOX_STATE_STORE": "mongodb://x"},
            "SANDBOX_STATE_STORE: 'mongodb://x' is not a state store: use memory",
            id="variable",
        ),
        pytest.param(
            (),
            {"SANDBOX_STATE_STORE": "redis://:hunter2@h:1/zero"},
            "SANDBOX_STATE_STORE: 'redis://***@h:1/zero': the database after the port is a number",
            id="password",
        ),
    ],
)
def test_a_malformed_store_stops_the_server_at_start_naming_the_flag_or_variable(
    args: tuple[str, ...], env: dict[str, str], says: str
) -> None:
    done = serve(*args, SANDBOX_STATE_KEYS="k" * 40, **env)
    assert done.returncode == 2
    assert done.stderr.startswith(f"sandbox-server: invalid configuration: {says}"), done.stderr
    assert "hunter2" not in done.stderr


def test_the_state_store_is_a_flag_of_serve_with_its_variable() -> None:
    done = subprocess.run([*COMMAND[:4], "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert "--state-store" in done.stdout and "[SANDBOX_STATE_STORE]" in done.stdout
