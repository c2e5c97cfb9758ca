"""Whether an upstream server's command line starts this server itself.

Desktop clients' config files list this server beside the others, so pointing ``--upstream`` at such a file would
make the server start a copy of itself as one of its own upstreams, and that copy another, for as long as
processes can be made. An entry whose command runs ``sandbox-server``, ``python -m sandbox_server``, or the
``mcp-v8-sandbox`` package through a launcher (``uvx``, ``uv run``, ``pipx run``, ``npx``...) is refused (listed
unavailable with the reason) instead; so is one that does it through ``env`` or a shell's ``-c`` script.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from pathlib import PurePath, PurePosixPath, PureWindowsPath

__all__ = ["PACKAGE", "PROGRAM", "runs_this_server"]

PROGRAM = "sandbox-server"
"""The console script this server installs."""
PACKAGE = "mcp-v8-sandbox"
"""The distribution it is installed as."""
_MODULE = "sandbox_server"

_PYTHON = re.compile(r"python(?:[0-9.]*)?w?|py|pypy[0-9.]*")
_LAUNCHERS = frozenset({"uv", "uvx", "pipx", "npx", "pnpx", "bunx", "pip-run", "hatch", "poetry", "pdm", "rye"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "cmd", "powershell", "pwsh"})
_SUBCOMMANDS = frozenset({"run", "tool", "exec", "x", "dlx"})
_PACKAGE_OPTIONS = frozenset({"--from", "--with", "-p", "--package", "--spec"})
_VALUE_OPTIONS = _PACKAGE_OPTIONS | frozenset(
    {"--python", "--directory", "--project", "--env-file", "--index-url", "-i", "--index", "--cache-dir", "-w"}
)
_SEPARATORS = frozenset({";", "&&", "||", "|", "&"})
_SPEC_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_MAX_DEPTH = 4


def runs_this_server(command: str, args: Sequence[str]) -> str | None:
    """How ``command`` with ``args`` starts this server (a short phrase for the reason), or None when it does not
    seem to."""
    return _check([command, *args], 0)


def _check(words: list[str], depth: int) -> str | None:
    if not words or depth > _MAX_DEPTH:
        return None
    program, rest = _program(words[0]), words[1:]
    if program == PROGRAM:
        return f"it runs {PROGRAM}"
    if program == "env":
        while rest and (rest[0].startswith("-") or _ASSIGNMENT.match(rest[0])):
            rest = rest[1:]
        return _check(rest, depth + 1)
    if _PYTHON.fullmatch(program):
        return _python(rest)
    if program in _LAUNCHERS:
        return _launched(program, rest)
    if program in _SHELLS:
        for index, word in enumerate(rest[:-1]):
            if word.lower() in ("-c", "/c", "-command", "-lc", "-ic"):
                return _script(rest[index + 1], depth)
    return None


def _launched(launcher: str, args: list[str]) -> str | None:
    """What a package runner starts: the package an option names (``--from``, ``--with``, ``-p``...) or the first
    word that is not an option or a subcommand; the words after it are that program's own arguments."""
    index = 0
    while index < len(args):
        word = args[index]
        if word in _SUBCOMMANDS:
            index += 1
            continue
        if word.startswith("-"):
            name, has_value, value = word.partition("=")
            if name in _VALUE_OPTIONS and not has_value:
                value = args[index + 1] if index + 1 < len(args) else ""
                index += 1
            if name in _PACKAGE_OPTIONS and _package(value):
                return f"it runs {PACKAGE} through {launcher}"
            index += 1
            continue
        if _program(word) == PROGRAM or _package(word):
            return f"it runs {PROGRAM if _program(word) == PROGRAM else PACKAGE} through {launcher}"
        return _python(args[index + 1 :]) if _PYTHON.fullmatch(_program(word)) else None
    return None


def _python(args: list[str]) -> str | None:
    for index, word in enumerate(args):
        module = args[index + 1] if word == "-m" and index + 1 < len(args) else word[2:] if word[:2] == "-m" else ""
        if module == _MODULE or module.startswith(_MODULE + "."):
            return f"it runs python -m {_MODULE}"
        if word == "-m":
            return None  # another module runs; what follows are its arguments
        if not word.startswith("-"):
            return f"it runs {PROGRAM}" if _program(word) == PROGRAM else None  # a script, then its arguments
    return None


def _script(script: str, depth: int) -> str | None:
    try:
        words = shlex.split(script, posix=True)
    except ValueError:
        words = script.split()
    command: list[str] = []
    for word in [*words, ";"]:
        if word not in _SEPARATORS:
            command.append(word)
            continue
        while command and (command[0] == "exec" or _ASSIGNMENT.match(command[0])):
            command = command[1:]
        found = _check(command, depth + 1)
        if found is not None:
            return found
        command = []
    return None


def _program(word: str) -> str:
    """The program a word names: its last path part, without a Windows extension, in lower case."""
    path: PurePath = PureWindowsPath(word) if "\\" in word else PurePosixPath(word)
    name = path.name.lower()
    for suffix in (".exe", ".cmd", ".bat", ".ps1"):
        name = name.removesuffix(suffix)
    return name


def _package(word: str) -> bool:
    """Whether ``word`` names this server's package (``mcp-v8-sandbox``, ``mcp_v8_sandbox==0.1``, ``...@latest``,
    ``--from=mcp-v8-sandbox``)."""
    word = word.split("=", 1)[1] if word.startswith("--") and "=" in word else word
    match = _SPEC_NAME.match(word)
    return match is not None and re.sub(r"[-_.]+", "-", match.group(0)).lower() == PACKAGE
