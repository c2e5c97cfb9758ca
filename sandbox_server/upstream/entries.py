"""Reading one server's entry of the upstream config file: typed keys, ``${VAR}`` expansion, and the problem that
makes the entry unusable (:class:`EntryProblem`, which names the key and what is accepted).

A problem in one entry makes that server unavailable, with the problem as its reason; the other servers of the
file still work (see :func:`~sandbox_server.upstream.config.parse_upstream_config`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from dotenv import dotenv_values

__all__ = ["MAX_ENV_FILE_BYTES", "Entry", "EntryProblem", "kind_of"]

MAX_ENV_FILE_BYTES = 1_048_576
_ENV_FILE = "a dotenv file (NAME=value lines), its path absolute or relative to the upstream config file"

_VARIABLE = re.compile(r"\$\{([^}]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class EntryProblem(Exception):
    """One server's entry cannot be used: ``key`` (None for the entry as a whole), what is wrong, what is accepted."""

    def __init__(self, key: str | None, problem: str, accepted: str) -> None:
        super().__init__(f"{f'key {key!r} ' if key else ''}{problem}; accepted: {accepted}")
        self.key = key


class Entry:
    """The keys of one server's entry, read with their types checked and variables expanded.

    Args:
        name: The server's name (its key in the file).
        data: The entry's JSON object.
        environ: Where ``${VAR}`` is looked up.
        folder: The config file's folder, against which relative paths (``envFile``) are read.
    """

    def __init__(self, name: str, data: dict[str, Any], environ: Mapping[str, str], folder: Path | None) -> None:
        self.name = name
        self.data = data
        self.environ = environ
        self.folder = folder
        self.secrets: set[str] = set()
        """Every value taken from the environment (or an env file): hidden wherever the config is shown."""

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def fail(self, key: str | None, problem: str, accepted: str) -> NoReturn:
        raise EntryProblem(key, problem, accepted)

    def string(self, key: str) -> str | None:
        value = self.data.get(key)
        if value is not None and not isinstance(value, str):
            self.fail(key, f"must be a string, not {kind_of(value)}", "a JSON string")
        return value

    def strings(self, key: str) -> list[str]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.fail(key, f"must be a list of strings, not {kind_of(value)}", '["...", "..."]')
        return value

    def string_map(self, key: str) -> dict[str, str]:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"must be an object of strings, not {kind_of(value)}", '{"NAME": "value"}')
        for item, inner in value.items():
            if not isinstance(inner, str):
                # The value itself stays out of the message: it may be a credential.
                self.fail(key, f"has a value for {item!r} that is {kind_of(inner)}", "string values only")
        return value

    def expand(self, key: str, value: str) -> str:
        """``value`` with ``${VAR}``, ``${env:VAR}`` and ``${VAR:-default}`` replaced; a variable's value is never
        put in a message. Another client's own variables (VS Code's ``${input:...}``, ``${workspaceFolder}``...)
        make the entry unusable: only that client can fill them in."""

        def replace(match: re.Match[str]) -> str:
            body = match.group(1)
            variable, _, default = body.partition(":-")
            has_default = ":-" in body
            if variable.startswith("env:"):
                variable = variable[4:]
            elif ":" in variable:
                self.fail(
                    key,
                    f"uses ${{{body}}}, which only the client that defined it can fill in (it asks its user)",
                    "${VAR} or ${env:VAR} from this process's environment, or the value itself",
                )
            if not _NAME.fullmatch(variable):
                self.fail(key, f"uses ${{{body}}}, which is not a variable name", "${VAR} or ${env:VAR}")
            if variable in self.environ:
                found = self.environ[variable]
            elif has_default:
                found = default
            else:
                self.fail(
                    key, f"uses the environment variable {variable} which is not set", "set it, or ${VAR:-default}"
                )
            self.secrets.add(found)
            return found

        return _VARIABLE.sub(replace, value)

    def env_file(self, key: str) -> dict[str, str]:
        """The variables of the dotenv file the entry names at ``key`` (relative to the config file's folder), read
        as they are written (no ``${VAR}`` inside it is expanded); each value is a secret."""
        where = self.expanded(key)
        if where is None:
            return {}
        path = Path(where).expanduser()
        if not path.is_absolute() and self.folder is not None:
            path = self.folder / path
        try:
            size = path.stat().st_size
        except OSError as exc:
            self.fail(key, f"names a file that cannot be read ({exc.strerror or type(exc).__name__})", _ENV_FILE)
        if not path.is_file() or size > MAX_ENV_FILE_BYTES:
            self.fail(key, f"names something that is not a file of at most {MAX_ENV_FILE_BYTES} bytes", _ENV_FILE)
        try:
            values = dotenv_values(path, interpolate=False, encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            self.fail(key, f"names a file that cannot be read as UTF-8 text ({type(exc).__name__})", _ENV_FILE)
        found = {name: value for name, value in values.items() if value is not None}
        self.secrets.update(found.values())
        return found

    def expanded(self, key: str) -> str | None:
        value = self.string(key)
        return None if value is None else self.expand(key, value)

    def expanded_map(self, key: str) -> dict[str, str]:
        return {item: self.expand(key, value) for item, value in self.string_map(key).items()}


def kind_of(value: object) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
    }.get(type(value), type(value).__name__)
