"""Which other stdio MCP servers a run compares against, from the command line or found installed.

A peer is any MCP server started as a command that speaks stdio and has a tool that runs code. Its tool and the
tool's code argument are found with ``tools/list`` unless given; the code of each measurement is built in for
JavaScript and Python (the language is taken from the tool's or argument's name unless given) or given whole.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "LANGUAGES",
    "MCP_RUN_PYTHON",
    "NO_PEER",
    "SUM_EXPECTED",
    "Code",
    "PeerSpec",
    "PeerToolError",
    "add_arguments",
    "builtin_code",
    "choose_tool",
    "mcp_run_python",
    "specs_from",
]

Language = Literal["javascript", "python"]
LANGUAGES: tuple[Language, ...] = ("javascript", "python")

MCP_RUN_PYTHON = "mcp-run-python"
"""pydantic's server that runs Python in Pyodide under Deno; used as a peer when its command is on PATH."""

NO_PEER = (
    "No peer was compared: none was named with --peer, and mcp-run-python (which needs Deno) is not on PATH. "
    "`python -m benchmarks --peer NAME=COMMAND` compares with any stdio MCP server that runs code."
)
"""The note of a run without a peer."""

SUM_EXPECTED = "499500000"
"""The sum the built-in 1e6-element snippets compute: each block of 1,000 holds every residue 0-999 once."""


@dataclass(frozen=True, slots=True)
class Code:
    """The code one peer runs for each measurement, and the text its result must contain (None: not checked)."""

    trivial: str
    sum: str
    trivial_expected: str | None = "2"
    sum_expected: str | None = SUM_EXPECTED


_BUILTIN = {
    "javascript": Code(
        trivial="1+1",
        sum=(
            "const xs = new Array(1e6);\n"
            "for (let i = 0; i < xs.length; i++) xs[i] = (i * 7919) % 1000;\n"
            "let total = 0;\n"
            "for (const x of xs) total += x;\n"
            "total"
        ),
    ),
    "python": Code(
        trivial="1+1",
        sum=("xs = [(i * 7919) % 1000 for i in range(10**6)]\ntotal = 0\nfor x in xs:\n    total += x\ntotal"),
    ),
}


def builtin_code(language: Language) -> Code:
    """The built-in code of each measurement in ``language``: the same computation as execute_js runs."""
    return _BUILTIN[language]


@dataclass(frozen=True, slots=True)
class PeerSpec:
    """One peer as the command line (or the search for mcp-run-python) describes it.

    Attributes:
        name: What the report calls it.
        command: The program and its arguments.
        tool: The code tool's name; None to find it with ``tools/list``.
        argument: The tool's code argument; None to find it in the tool's input schema.
        language: Which built-in code to send; None to guess from the tool's and argument's names.
        trivial: Code of the trivial call, replacing the built-in one (its result is then not checked).
        sum: Code of the 1e6-element sum, replacing the built-in one (its result is then not checked).
        found: True when the run found the peer itself rather than being told of it: a peer that cannot start
            is then skipped with a note instead of failing the run.
    """

    name: str
    command: list[str] = field(default_factory=list)
    tool: str | None = None
    argument: str | None = None
    language: Language | None = None
    trivial: str | None = None
    sum: str | None = None
    found: bool = False

    def code(self, tool: str, argument: str) -> Code:
        """The code to send, given the tool and argument in use."""
        language = self.language or guess_language(tool, argument)
        builtin = builtin_code(language)
        return Code(
            trivial=builtin.trivial if self.trivial is None else self.trivial,
            sum=builtin.sum if self.sum is None else self.sum,
            trivial_expected=builtin.trivial_expected if self.trivial is None else None,
            sum_expected=builtin.sum_expected if self.sum is None else None,
        )


def guess_language(tool: str, argument: str) -> Language:
    """Python when the tool or its argument says so (``run_python_code``, ``python_code``), else JavaScript."""
    return "python" if "python" in f"{tool} {argument}".lower() else "javascript"


class PeerToolError(ValueError):
    """The peer's tools/list has no tool that fits, or not the one named."""


def _code_argument(schema: dict[str, Any]) -> str | None:
    """The first required string property whose name holds ``code``, or the only required string property."""
    properties = schema.get("properties") or {}
    required = [name for name in schema.get("required") or [] if (properties.get(name) or {}).get("type") == "string"]
    named = [name for name in required if "code" in name.lower()]
    if named:
        return str(named[0])
    return str(required[0]) if len(required) == 1 else None


def choose_tool(spec: PeerSpec, tools: Sequence[tuple[str, dict[str, Any]]]) -> tuple[str, str]:
    """The tool and code argument to use, from the peer's tools as ``(name, input schema)`` pairs.

    Raises:
        PeerToolError: The named tool is not there, or no tool has a code argument to find.
    """
    names = [name for name, _ in tools]
    if spec.tool is not None:
        schema = next((schema for name, schema in tools if name == spec.tool), None)
        if schema is None:
            raise PeerToolError(
                f"peer {spec.name!r} has no tool {spec.tool!r}; its tools: {', '.join(names) or 'none'}"
            )
        argument = spec.argument or _code_argument(schema)
        if argument is None:
            raise PeerToolError(
                f"cannot tell which argument of {spec.name!r}'s tool {spec.tool!r} takes the code: "
                f"name it with --peer-argument {spec.name}=ARGUMENT"
            )
        return spec.tool, argument
    for name, schema in tools:
        argument = spec.argument if spec.argument in (schema.get("properties") or {}) else _code_argument(schema)
        if argument is not None:
            return name, argument
    raise PeerToolError(
        f"no tool of peer {spec.name!r} has a required string argument for code (its tools: "
        f"{', '.join(names) or 'none'}): name one with --peer-tool {spec.name}=TOOL and --peer-argument {spec.name}=ARG"
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The peer options of ``python -m benchmarks``."""
    group = parser.add_argument_group(
        "peers",
        "Compare with other stdio MCP servers in the same run: a trivial call, a 1e6-element sum and cold start, "
        "each interleaved with the same measurement on sandbox-server. Without --peer, mcp-run-python is used when "
        "its command is on PATH (and skipped with a note when it cannot start). The code tool and its argument are "
        "found with tools/list (a tool with a required string argument whose name holds 'code'); the code is "
        "built in for JavaScript and Python (Python when the tool or argument name says 'python').",
    )
    group.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="a stdio MCP server to compare with, started as COMMAND (split like a shell would); repeatable",
    )
    group.add_argument(
        "--peer-tool", action="append", default=[], metavar="NAME=TOOL", help="the tool of peer NAME that runs code"
    )
    group.add_argument(
        "--peer-argument",
        action="append",
        default=[],
        metavar="NAME=ARGUMENT",
        help="the argument of that tool that takes the code",
    )
    group.add_argument(
        "--peer-language",
        action="append",
        default=[],
        metavar="NAME=LANGUAGE",
        help=f"which built-in code to send to peer NAME: {' or '.join(LANGUAGES)}",
    )
    group.add_argument(
        "--peer-trivial",
        action="append",
        default=[],
        metavar="NAME=CODE",
        help="code of the trivial call for peer NAME (default: 1+1; a given code's result is not checked)",
    )
    group.add_argument(
        "--peer-sum",
        action="append",
        default=[],
        metavar="NAME=CODE",
        help="code that sums 1e6 numbers for peer NAME (default: built in for the language)",
    )


def _pairs(option: str, values: Sequence[str]) -> list[tuple[str, str]]:
    pairs = []
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name.strip() or not rest.strip():
            raise ValueError(f"{option} expects NAME=VALUE with both parts non-empty, got {value!r}")
        pairs.append((name.strip(), rest))
    return pairs


def mcp_run_python() -> PeerSpec | None:
    """mcp-run-python over stdio, when its command is on PATH."""
    command = shutil.which(MCP_RUN_PYTHON)
    if command is None:
        return None
    return PeerSpec(
        MCP_RUN_PYTHON,
        [command, "stdio"],
        tool="run_python_code",
        argument="python_code",
        language="python",
        found=True,
    )


def specs_from(args: argparse.Namespace) -> list[PeerSpec]:
    """The peers the parsed options name, or mcp-run-python when none is named and it is installed.

    Raises:
        ValueError: An option is malformed, names a peer no --peer defines, or a language that is not built in.
    """
    specs: dict[str, dict[str, Any]] = {}
    for name, command in _pairs("--peer", args.peer):
        if name in specs:
            raise ValueError(f"--peer names {name!r} twice")
        words = shlex.split(command)
        if not words:
            raise ValueError(f"--peer {name}= has an empty command")
        specs[name] = {"name": name, "command": words}
    for option, key in (
        ("--peer-tool", "tool"),
        ("--peer-argument", "argument"),
        ("--peer-language", "language"),
        ("--peer-trivial", "trivial"),
        ("--peer-sum", "sum"),
    ):
        for name, value in _pairs(option, getattr(args, option.lstrip("-").replace("-", "_"))):
            if name not in specs:
                known = ", ".join(specs) or "none"
                raise ValueError(f"{option} names peer {name!r}, which no --peer defines (defined: {known})")
            if key == "language" and value not in LANGUAGES:
                raise ValueError(f"{option} {name}={value}: the language must be one of {', '.join(LANGUAGES)}")
            specs[name][key] = value
    if specs:
        return [PeerSpec(**fields) for fields in specs.values()]
    found = mcp_run_python()
    return [found] if found is not None else []
