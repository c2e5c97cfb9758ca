"""The command line is built from the ``Settings`` fields: each field's flag, help, default and variable, the errors
that name them, and the README's table of settings, all held to the fields here."""

from __future__ import annotations

import argparse
import contextlib
import io
from pathlib import Path

import pytest
from pydantic import ValidationError

from sandbox_server.cli.flags import (
    FIELDS,
    OTHER_VARIABLES,
    accepted_values,
    build_parser,
    configuration_problem,
    env_name,
    flag_of,
    settings_from,
    shown_default,
)
from sandbox_server.sessions import SessionLimits
from sandbox_server.settings import DEFAULT_SESSION_IDLE_TIMEOUT_S, Settings

ROOT = Path(__file__).resolve().parent.parent
TABLE_HEADER = "| flag | environment variable | default | meaning |"
FLAG_FIELDS = [name for name in FIELDS if flag_of(name) is not None]


def help_of(*command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([*command, "--help"])
    return " ".join(out.getvalue().split())  # argparse wraps at the terminal's width


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def settings_table(text: str) -> list[tuple[str, str, str]]:
    """(flag, variable, default) of each row of the table of settings in ``text``, backticks removed."""
    lines = text.splitlines()
    start = lines.index(TABLE_HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip().replace("`", "") for cell in line.strip("|").split("|")]
        rows.append((cells[0], cells[1], cells[2]))
    return rows


def documented_table() -> tuple[Path, list[tuple[str, str, str]]]:
    """The settings table, wherever the documentation keeps it (the README, or a page of docs/)."""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        if TABLE_HEADER in text:
            return path, settings_table(text)
    raise AssertionError(f"no table starting {TABLE_HEADER!r} in README.md or docs/")


def serve_flags() -> set[str]:
    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return {option for action in commands.choices["serve"]._actions for option in action.option_strings}


def test_the_settings_table_lists_every_field_with_its_flag_variable_and_default() -> None:
    path, rows = documented_table()
    by_variable = {variable: (flag, default) for flag, variable, default in rows}
    assert len(by_variable) == len(rows), f"{path.name}: a variable is listed twice"
    for name in FIELDS:
        assert env_name(name) in by_variable, f"{path.name} does not list {env_name(name)}"
        flag, default = by_variable[env_name(name)]
        assert flag == (flag_of(name) or "(environment only)"), name
        assert default == shown_default(name), name


def test_every_row_of_the_settings_table_is_a_real_setting_and_a_real_flag() -> None:
    path, rows = documented_table()
    variables = {env_name(name) for name in FIELDS}
    flags = serve_flags()
    for flag, variable, _ in rows:
        if variable in OTHER_VARIABLES:  # read where it is used, never a flag
            assert flag == "(environment only)", variable
            continue
        assert variable in variables, f"{path.name} lists {variable}, which is no setting"
        assert flag == "(environment only)" or flag in flags, f"{path.name} lists {flag}, which serve does not take"


def test_the_table_reader_finds_rows_and_stops_at_the_tables_end() -> None:
    text = f"intro\n{TABLE_HEADER}\n|---|---|---|---|\n| `--a` | `SANDBOX_A` | 1 s | x |\n\nafter | not a row |\n"
    assert settings_table(text) == [("--a", "SANDBOX_A", "1 s")]


@pytest.mark.parametrize("name", FLAG_FIELDS)
def test_serve_help_shows_each_settings_flag_with_its_default_and_variable(name: str) -> None:
    text = help_of("serve")
    flag = str(flag_of(name))
    assert flag in text
    assert f"(default: {shown_default(name)}) [{env_name(name)}]" in text
    assert "PydanticUndefined" not in text


def test_the_client_commands_take_the_limits_but_not_the_flags_of_serving() -> None:
    text = help_of("tools", "call")
    assert "--memory-limit-mb" in text and "--data-dir" in text
    assert "--port" not in text and "--http-header-timeout" not in text


def test_a_default_computed_at_start_up_is_described_in_words() -> None:
    assert shown_default("max_sessions") == "a quarter of memory / 256 MiB, 2 to 32"
    assert shown_default("workers") == "CPU count"
    assert shown_default("http_header_timeout_s") == "10 s"
    assert shown_default("data_dir") == "none"


def out_of_bounds(name: str) -> str:
    """A value of the numeric setting ``name`` just outside its lower bound."""
    low = next(
        (getattr(item, key) for item in FIELDS[name].metadata for key in ("ge", "gt") if hasattr(item, key)), None
    )
    assert low is not None, name
    ge = any(hasattr(item, "ge") for item in FIELDS[name].metadata)
    return str(low - 1 if ge else low)


NUMERIC_FLAG_FIELDS = [name for name in FLAG_FIELDS if accepted_values(name) is not None]


@pytest.mark.parametrize("name", NUMERIC_FLAG_FIELDS)
def test_an_out_of_range_flag_is_reported_under_that_flag_with_the_accepted_range(name: str) -> None:
    flag = str(flag_of(name))
    args = parse("serve", flag, out_of_bounds(name))
    with pytest.raises(ValidationError) as caught:
        settings_from(args)
    problems = [configuration_problem(error, args) for error in caught.value.errors()]
    assert len(problems) == 1
    assert problems[0].startswith(f"{flag} = "), problems[0]
    assert flag in serve_flags()
    assert f"(accepted: {accepted_values(name)})" in problems[0]


@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [
        pytest.param(
            "--http-header-timeout", "-1", "--http-header-timeout = -1.0: Input should be greater than 0", id="header"
        ),
        pytest.param(
            "--http-body-timeout", "0", "--http-body-timeout = 0.0: Input should be greater than 0", id="body"
        ),
        pytest.param(
            "--http-session-idle-timeout",
            "-3",
            "--http-session-idle-timeout = -3.0: Input should be greater than 0",
            id="idle",
        ),
        pytest.param(
            "--drain-timeout",
            "-5",
            "--drain-timeout = -5.0: Input should be greater than or equal to 0 (accepted: from 0 to 86400)",
            id="drain",
        ),
    ],
)
def test_the_http_timeouts_and_the_drain_are_reported_under_the_flags_that_exist(
    flag: str, value: str, expected: str
) -> None:
    args = parse("serve", "--transport", "http", flag, value)
    with pytest.raises(ValidationError) as caught:
        settings_from(args)
    assert configuration_problem(caught.value.errors()[0], args).startswith(expected)


def test_a_value_from_the_environment_is_reported_under_its_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_HTTP_HEADER_TIMEOUT_S", "-1")
    args = parse("serve")
    with pytest.raises(ValidationError) as caught:
        settings_from(args)
    assert configuration_problem(caught.value.errors()[0], args).startswith("SANDBOX_HTTP_HEADER_TIMEOUT_S = '-1'")


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["--data-dir", "DIR"], id="before-no-command"),
        pytest.param(["--data-dir", "DIR", "serve"], id="before-serve"),
        pytest.param(["serve", "--data-dir", "DIR"], id="after-serve"),
        pytest.param(["--data-dir", "DIR", "tools", "list"], id="before-tools"),
        pytest.param(["tools", "list", "--data-dir", "DIR"], id="after-tools"),
        pytest.param(["--workers", "3", "serve", "--data-dir", "DIR"], id="both-sides"),
    ],
)
def test_a_flag_works_before_or_after_the_command(argv: list[str], tmp_path: Path) -> None:
    args = parse(*[str(tmp_path) if part == "DIR" else part for part in argv])
    settings = settings_from(args)
    assert settings.data_dir == tmp_path.resolve()


def test_a_flag_after_the_command_wins_over_the_same_flag_before_it() -> None:
    assert settings_from(parse("--workers", "3", "serve", "--workers", "2")).workers == 2
    assert settings_from(parse("--workers", "3", "serve")).workers == 3


def test_an_absent_flag_leaves_the_environment_or_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDBOX_MAX_FILES", "7")
    settings = settings_from(parse("--workers", "1", "serve"))
    assert settings.max_files == 7
    assert settings.session_idle_timeout_s == DEFAULT_SESSION_IDLE_TIMEOUT_S


def test_the_session_limits_default_to_the_settings_defaults() -> None:
    settings = Settings(workers=1)
    limits = SessionLimits()
    assert (limits.per_client, limits.idle_s, limits.max_age_s, limits.journal_bytes, limits.rebuild_s) == (
        settings.max_sessions_per_client,
        settings.session_idle_timeout_s,
        settings.session_max_age_s,
        settings.max_journal_bytes,
        settings.session_rebuild_timeout_s,
    )


def test_every_flag_of_serve_is_stored_under_its_fields_name() -> None:
    """Each flag reaches its own field (a flag whose destination drifted from its field would be dropped)."""
    parser = build_parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    destinations = {o: a.dest for a in commands.choices["serve"]._actions for o in a.option_strings}
    assert {name: destinations.get(str(flag_of(name))) for name in FLAG_FIELDS} == {name: name for name in FLAG_FIELDS}


def test_variables_read_outside_settings_are_known_names_and_misspellings_of_them_are_reported() -> None:
    from sandbox_server.cli.flags import unknown_variables

    environ = dict.fromkeys([*OTHER_VARIABLES, "SANDBOX_WORKERS", "sandbox_port", "SANDBOX_STATE_KEY"], "x")
    assert list(unknown_variables(environ)) == [
        "SANDBOX_STATE_KEY is not a setting and is ignored; did you mean SANDBOX_STATE_KEYS?"
    ]
