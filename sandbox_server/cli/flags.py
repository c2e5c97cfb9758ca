"""The command line's flags, built from the :class:`~sandbox_server.settings.Settings` fields: one flag per field
(named after it unless its :class:`~sandbox_server.settings.Option` says otherwise), its help from the field's
description, its default and its environment variable from the field; the parser; and how the flags become
``Settings`` (or an error naming the flag or variable the user set, and what is accepted).

Every flag works before the command as well as after it (``sandbox-server --data-dir PATH`` serves, as
``sandbox-server serve --data-dir PATH`` does). No flag has a parser default: an absent flag leaves its attribute
unset, so that a value given before the command is not overwritten by a default after it, and so that the
settings see only what the user set (the rest comes from ``SANDBOX_<NAME>`` or the field's default).
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import types
from collections.abc import Iterator, Mapping
from typing import Any, Literal, NoReturn, Union, get_args, get_origin

from pydantic.fields import FieldInfo
from pydantic_core import ErrorDetails, PydanticUndefined

from sandbox_server.cli.packages import add_packages_parser
from sandbox_server.journal.keys import STATE_KEYS_VARIABLE
from sandbox_server.packages.config import REGISTRY_VARIABLE
from sandbox_server.settings import Option, Settings

__all__ = [
    "FIELDS",
    "OTHER_VARIABLES",
    "accepted_values",
    "build_parser",
    "configuration_problem",
    "env_name",
    "flag_of",
    "misplaced_flags",
    "settings_env",
    "settings_from",
    "shown_default",
    "source_of",
    "unknown_variables",
]

FIELDS: Mapping[str, FieldInfo] = Settings.model_fields
OTHER_VARIABLES = (STATE_KEYS_VARIABLE, REGISTRY_VARIABLE)
"""Variables read where they are used rather than through ``Settings`` (secrets, and what only ``packages add``
needs): no flag, but real names, so that they are passed on and never reported as unknown."""
ENV_PREFIX = str(Settings.model_config.get("env_prefix", ""))
_NO_OPTION = Option()
_METAVARS = {
    "data_dir": "PATH",
    "packages_dir": "PATH",
    "upstream": "FILE",
    "allowed_hosts": "NAMES",
    "timezone": "ZONE",
    "host": "ADDRESS",
}
_UNIT_METAVARS = {"_ms": "MS", "_mb": "MIB", "_bytes": "BYTES", "_s": "SECONDS"}


def option_of(name: str) -> Option:
    """The command-line metadata of the setting ``name``."""
    return next((item for item in FIELDS[name].metadata if isinstance(item, Option)), _NO_OPTION)


def flag_of(name: str) -> str | None:
    """The flag of the setting ``name`` (``--max-files``), or None when it is read from the environment only."""
    flag = option_of(name).flag
    if flag is None:
        return "--" + name.replace("_", "-")
    return flag or None


def env_name(name: str) -> str:
    """The environment variable of the setting ``name`` (``SANDBOX_MAX_FILES``)."""
    return ENV_PREFIX.upper() + name.upper()


def shown_default(name: str) -> str:
    """The default of the setting ``name`` as ``--help`` and the README's table show it."""
    text = option_of(name).default_text
    if text is not None:
        return text
    default = FIELDS[name].default
    if default is None or default == [] or default is PydanticUndefined:
        return "none"
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, float):
        return f"{default:g} s" if name.endswith("_s") else f"{default:g}"
    return str(default)


def accepted_values(name: str) -> str | None:
    """What the setting ``name`` accepts, in words, when it is a number with bounds (``from 1 to 256``)."""
    if _value_kind(FIELDS[name].annotation) not in (int, float):
        return None
    bounds = {
        key: _number(getattr(item, key)) for item in FIELDS[name].metadata for key in _BOUNDS if hasattr(item, key)
    }
    ge, gt, le, lt = (bounds.get(key) for key in _BOUNDS)
    high = le if le is not None else None if lt is None else f"below {lt}"
    if ge is not None:
        return f"{ge} or more" if high is None else f"from {ge} to {high}"
    if gt is not None:
        return f"more than {gt}" if high is None else f"more than {gt}, up to {high}"
    return None if high is None else f"up to {high}"


_BOUNDS = ("ge", "gt", "le", "lt")


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _value_kind(annotation: Any) -> Any:
    """What one value of a field is: ``int``, ``float``, ``bool``, ``str``, or a Literal's tuple of choices."""
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        members = [arg for arg in get_args(annotation) if arg is not type(None)]
        return _value_kind(members[0]) if len(members) == 1 else str
    if origin is Literal:
        return tuple(str(arg) for arg in get_args(annotation))
    if annotation in (int, float, bool):
        return annotation
    return str


def _metavar(name: str, kind: Any) -> str | None:
    if isinstance(kind, tuple):
        return None  # argparse shows the choices
    if name in _METAVARS:
        return _METAVARS[name]
    for suffix, metavar in _UNIT_METAVARS.items():
        if name.endswith(suffix):
            return metavar
    return "N" if kind is int else name.upper()


def _add_flag(group: argparse._ActionsContainer, name: str, *, shown: bool = True) -> None:
    flag = flag_of(name)
    assert flag is not None
    kind = _value_kind(FIELDS[name].annotation)
    description = FIELDS[name].description or name
    text = f"{description} (default: {shown_default(name)}) [{env_name(name)}]" if shown else argparse.SUPPRESS
    common: dict[str, Any] = {"dest": name, "default": argparse.SUPPRESS, "help": text}
    if kind is bool:
        group.add_argument(flag, action="store_const", const=True, **common)
    elif isinstance(kind, tuple):
        group.add_argument(flag, choices=kind, **common)
    else:
        group.add_argument(flag, type=kind if kind in (int, float) else str, metavar=_metavar(name, kind), **common)


def _flag_fields(*, serving: bool) -> list[str]:
    return [name for name in FIELDS if flag_of(name) is not None and option_of(name).serve_only == serving]


def _add_setting_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("limits and options (each also read from SANDBOX_<NAME>)")
    for name in _flag_fields(serving=False):
        _add_flag(group, name)


def _add_serve_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("serving")
    for name in _flag_fields(serving=True):
        _add_flag(group, name)


def _add_client_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--url",
        default=None,
        help="reach a running server over Streamable HTTP (e.g. http://127.0.0.1:8000/mcp) instead of starting one; "
        "its token, if any, is read from SANDBOX_AUTH_TOKEN",
    )


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are two lines: what was wrong, and where the help is (the full usage,
    with every flag, fills a screen)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n(see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``sandbox-server`` command."""
    parser = _Parser(
        prog="sandbox-server",
        description="MCP server for exact computation: add, divide, date_diff and sandboxed JavaScript (execute_js).",
        epilog="With no command, serves MCP over stdio. Every flag of `serve` (see sandbox-server serve --help) may "
        "also come before the command: sandbox-server --data-dir PATH serves with a data folder.",
    )
    parser.add_argument("--version", action="store_true", help="print package, mini-racer and V8 versions and exit")
    for name in (*_flag_fields(serving=True), *_flag_fields(serving=False)):
        _add_flag(parser, name, shown=False)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    serve = commands.add_parser("serve", help="serve MCP (the default command; stdio unless --transport http)")
    _add_serve_flags(serve)
    _add_setting_flags(serve)

    tools = commands.add_parser("tools", help="list or call tools of a server started for the purpose")
    tool_commands = tools.add_subparsers(dest="tools_command", metavar="ACTION", required=True)
    listing = tool_commands.add_parser("list", help="list the tools")
    listing.add_argument("--json", action="store_true", help="print the whole tools/list result as JSON")
    _add_client_flags(listing)
    _add_setting_flags(listing)
    call = tool_commands.add_parser("call", help="call one tool and print its result")
    _add_client_flags(call)
    call.add_argument("name", help="tool name, e.g. add or execute_js")
    call.add_argument(
        "--args",
        default="{}",
        metavar="JSON",
        help="arguments as a JSON object (default: {}); @FILE reads them from a file, - from stdin",
    )
    call.add_argument(
        "--then",
        action="append",
        default=[],
        metavar="JSON",
        help="arguments of a further call of the same tool, made after the first on the same connection (repeatable; "
        "@FILE reads them from a file; e.g. two calls in one session: "
        '--args \'{"code": "var n = 1", "session": "s"}\' --then \'{"code": "n + 1", "session": "s"}\')',
    )
    call.add_argument("--code-file", help="execute_js: read `code` from this file ('-' for stdin)")
    call.add_argument(
        "--save-images",
        metavar="DIR",
        help="write the result's images to DIR (image-1.png, ...) and print their paths instead of their data",
    )
    call.add_argument(
        "--json",
        action="store_true",
        help="print the whole CallToolResult as JSON (with --then, a JSON array of them); one JSON document always, "
        'an {"error": ...} object when the command fails',
    )
    _add_setting_flags(call)

    resources = commands.add_parser(
        "resources", help="list or read the data folder's files (resources) of a server started for the purpose"
    )
    resource_commands = resources.add_subparsers(dest="resources_command", metavar="ACTION", required=True)
    listing = resource_commands.add_parser("list", help="list every resource (all pages)")
    listing.add_argument("--json", action="store_true", help="print the resources as a JSON array")
    _add_client_flags(listing)
    _add_setting_flags(listing)
    read = resource_commands.add_parser("read", help="print one resource: text as is, a binary blob as raw bytes")
    read.add_argument("uri", help="resource URI (e.g. sandbox-data:///sales/2025.csv) or a path in the data folder")
    read.add_argument("--json", action="store_true", help="print the whole resources/read result as JSON")
    _add_client_flags(read)
    _add_setting_flags(read)

    packages = add_packages_parser(commands)
    for action in _subcommands(packages).values():
        _add_flag(action, "packages_dir")

    upstream = commands.add_parser(
        "upstream", help="connect to the --upstream servers and list their tools and what code may do with each"
    )
    upstream_commands = upstream.add_subparsers(dest="upstream_command", metavar="ACTION", required=True)
    listing = upstream_commands.add_parser("list", help="list each server's state and tools")
    listing.add_argument("--json", action="store_true", help="print the listing as JSON")
    _add_setting_flags(listing)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of ``parser``'s subcommands, by name."""
    found = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return dict(found.choices)


def misplaced_flags(args: argparse.Namespace) -> list[str]:
    """Flags of ``serve`` given (before the command) to a command that does not serve, such as ``tools``."""
    if args.command in (None, "serve"):
        return []
    return [str(flag_of(name)) for name in _flag_fields(serving=True) if hasattr(args, name)]


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings: the flags given, then ``SANDBOX_<NAME>`` variables, then the defaults."""
    given = {name: getattr(args, name) for name in FIELDS if flag_of(name) is not None and hasattr(args, name)}
    return Settings(**given)


def source_of(name: str, args: argparse.Namespace) -> str:
    """How the user set the setting ``name``, as they would write it: its flag if one was given, else its variable."""
    flag = flag_of(name)
    return flag if flag is not None and hasattr(args, name) else env_name(name)


def configuration_problem(error: ErrorDetails, args: argparse.Namespace) -> str:
    """One settings error, naming what the user set (the flag if one was given, else the environment variable)
    and, for a number, what is accepted."""
    message = error["msg"].removeprefix("Value error, ")

    def source(name: str) -> str:
        return source_of(name, args)

    if not error["loc"]:  # a rule across settings: name each setting it mentions as the user would set it
        return re.sub(r"\b[a-z]+(?:_[a-z]+)+\b", lambda m: source(m[0]) if m[0] in FIELDS else m[0], message)
    name = str(error["loc"][0])
    shown = "" if name in ("auth_token", "state_store") else f" = {error['input']!r}"  # a store URL may hold a password
    accepted = accepted_values(name) if name in FIELDS else None
    return f"{source(name)}{shown}: {message}" + (f" (accepted: {accepted})" if accepted else "")


def settings_env(settings: Settings) -> dict[str, str]:
    """Environment that passes ``settings`` (and the caller's other SANDBOX_* settings) to a child server."""
    known = {env_name(name) for name in FIELDS} | set(OTHER_VARIABLES)
    env = {key: value for key, value in os.environ.items() if key.upper() in known}
    for name in _flag_fields(serving=False):
        value = getattr(settings, name)
        if value is not None:
            env[env_name(name)] = str(value)
    env[env_name("log_level")] = "warning"
    env[env_name("transport")] = "stdio"
    return env


def unknown_variables(environ: Mapping[str, str]) -> Iterator[str]:
    """A warning for each ``SANDBOX_*`` variable that names no setting (and so changes nothing), with the closest
    real name."""
    prefix = ENV_PREFIX.upper()
    known = sorted([name.upper() for name in FIELDS] + [name.removeprefix(prefix) for name in OTHER_VARIABLES])
    for key in sorted(environ):
        upper = key.upper()
        if not upper.startswith(prefix) or upper.removeprefix(prefix) in known:
            continue
        # Compared without the prefix, which every name shares and which would make any two names look alike.
        close = difflib.get_close_matches(upper.removeprefix(prefix), known, n=1, cutoff=0.6)
        hint = f"did you mean {prefix}{close[0]}?" if close else "sandbox-server serve --help lists every setting"
        yield f"{key} is not a setting and is ignored; {hint}"
