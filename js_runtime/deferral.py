"""Which of the runtime's functions every isolate parses, and which wait in groups compiled on first use.

V8 pre-parses every function of a script it evaluates, about 30 us per kB of source even for functions that never
run, and a fresh isolate per call pays that each time. So only the functions a plain run calls (loading the runtime,
the warm-up, a ``1+1`` job) are in the script every isolate evaluates; the others are kept out of it, in groups
by what a job does (renders an object, logs, throws, awaits, uses Node or web APIs...). A group's source reaches the
isolate as a string the worker passes with ``connect`` (made in C++, not parsed), and is compiled the first time the
runtime calls one of its functions (``deferred.js``).

A file's top-level function declarations join the group :data:`FILE_GROUPS` gives the file, or stay in the script
when the file has none; a comment line ``// group: NAME`` in the comments just above a declaration moves that one
function (``eager`` keeps it in the script). Only function declarations move: a file's other top-level statements
(captured built-ins, constants, state) run when the runtime loads, where they were written, and a function body
reads nothing until it is called.

In the script, each deferred function that code outside its group calls is a ``let`` binding holding a stand-in
that compiles the group, then passes the call on; compiling the group assigns the real functions to those bindings,
so later calls go straight to them. Code outside the group may only call such a function, never use it as a value
(a stand-in is not the function: its name, length and identity differ), which :func:`split` checks.

Each group's source comes twice: as written, which V8 pre-parses and whose functions it compiles on their first
call, for a group a job needs; and with every function declaration written as a constant holding the function in
parentheses, which V8 takes as a sign to compile it with the group, for a group compiled ahead by a worker that
waits for its next job (``compileGroupAhead`` in ``deferred.js``, which receives it with the request), so that the
job does not compile it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable

__all__ = ["FILE_GROUPS", "Deferral", "split"]

FILE_GROUPS: dict[str, str] = {
    "objects.js": "render",
    "inspect.js": "render",
    "entries.js": "render",
    "layout.js": "render",
    "serialize.js": "render",
    "table.js": "table",
    "text.js": "text",
    "console.js": "console",
    "format.js": "console",
    "stack.js": "errors",
    "allocation.js": "errors",
    "timers.js": "async",
    "journal.js": "journal",
    "completion.js": "async",
    "node.js": "node",
    "packages.js": "packages",
    "web.js": "web",
    "host.js": "host",
    "files.js": "files",
    "tools.js": "tools",
    "display.js": "display",
    "clone.js": "clone",
}
"""The group of each file's functions; files not listed keep theirs in the script."""

CALLBACKS = frozenset({"formatArgs", "inspect", "onUncaught", "renderTable", "scheduleCheck"})
"""Deferred functions the script passes as values, to the runtime's own code only, which only calls them: for these a
stand-in serves as well as the function."""

EAGER = "eager"
_GROUP_MARK = re.compile(r"^\s*// group: ([a-z]+)\s*$")
_FUNCTION_START = re.compile(r"(?:async )?function\*? ?([A-Za-z_$][\w$]*) ?\(")
_NAME = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")
_DECLARED_NAME = re.compile(r"^(?:(?:async )?function\*? ?|const |let |var |class )([A-Za-z_$][\w$]*)", re.M)
# A string literal on one line (the runtime has no string that spans lines); its text is not code.
_STRING = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")


@dataclasses.dataclass(frozen=True, slots=True)
class Deferral:
    """The outcome of :func:`split`.

    Attributes:
        texts: Each file's text without its deferred functions, in the order given.
        declarations: Source for the script: the group names, where each group is in ``deferred``, and a stand-in
            binding for each deferred function called from outside its group.
        deferred: The groups' sources, one after another (what the worker passes to ``connect``).
        groups: The group names, in the order of ``deferred``, with the names of their functions.
        ahead: Each group's source to compile ahead, by group name (what the worker passes to ``compileGroupAhead``).
    """

    texts: list[str]
    declarations: str
    deferred: str
    groups: dict[str, list[str]]
    ahead: dict[str, str]


def split(files: list[tuple[str, str]], compact: Callable[[str], str]) -> Deferral:
    """Split ``files`` (name, text) into the script's part and the deferred groups (see the module's description).

    ``compact`` shortens a piece of source as the rest of the runtime is shortened (and makes it ASCII: the
    positions of the groups are those of its text).

    Raises:
        ValueError: A marker names no function, a deferred function is declared twice, has the name of something
            the script declares, or is used outside its group other than by calling it.
    """
    texts: list[str] = []
    groups: dict[str, dict[str, str]] = {}
    for name, text in files:
        kept, taken = _take_functions(text, name, FILE_GROUPS.get(name, EAGER))
        texts.append(kept)
        for function, (group, body) in taken.items():
            if any(function in members for members in groups.values()):
                raise ValueError(f"js_runtime/{name}: a deferred function named {function} is declared twice")
            groups.setdefault(group, {})[function] = compact(body)
    eager = compact("\n".join(texts))
    owner = {function: group for group, members in groups.items() for function in members}
    clashes = sorted(set(owner) & set(_DECLARED_NAME.findall(eager)))
    if clashes:
        raise ValueError(f"deferred functions have the names of declarations the script keeps: {clashes}")
    order = sorted(groups)
    outside: dict[str, set[str]] = {group: set() for group in order}
    problems = _check_uses(eager, "the script", owner, None, outside)
    for group in order:
        problems += _check_uses("\n".join(groups[group].values()), f"group {group}", owner, group, outside)
    if problems:
        raise ValueError(
            "deferred functions used other than by calling them, outside their group (mark each '// group: "
            f"{EAGER}', or keep the use in its group):\n" + "\n".join(problems)
        )
    sources = [_group_source(groups[group], sorted(outside[group]), compact) for group in order]
    ahead = {group: _group_source(groups[group], sorted(outside[group]), compact, ahead=True) for group in order}
    spans: list[int] = []
    position = 0
    for text in sources:
        spans.extend((position, position + len(text)))
        position += len(text)
    stand_ins = [
        f"{function} = deferredStandIn({index}, {json.dumps(function)})"
        for index, group in enumerate(order)
        for function in sorted(outside[group])
    ]
    declarations = [
        f"const DEFERRED_GROUPS = asList({json.dumps(order)});",
        f"const DEFERRED_SPANS = asList({json.dumps(spans)});",
    ]
    if stand_ins:
        declarations.append("let " + ",\n".join(stand_ins) + ";")
    groups_by_name = {group: list(groups[group]) for group in order}
    return Deferral(texts, "\n".join(declarations), "".join(sources), groups_by_name, ahead)


def _take_functions(text: str, file_name: str, default: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """``text`` without the top-level function declarations that go to a group, and those, by name.

    The runtime's files are formatted so that a top-level declaration starts a line with ``function`` (or ``async
    function``) and ends at the next line that is only ``}``.
    """
    kept: list[str] = []
    taken: dict[str, tuple[str, str]] = {}
    current: list[str] | None = None
    name = group = ""
    marked: str | None = None
    for line in text.splitlines():
        if current is None:
            mark = _GROUP_MARK.match(line)
            if mark is not None:
                marked = mark.group(1)
                continue
            match = _FUNCTION_START.match(line)
            if match is None:
                if marked is not None and not line.lstrip().startswith("//"):
                    raise ValueError(f"js_runtime/{file_name}: '// group: {marked}' is not followed by a function")
                kept.append(line)
                continue
            name, group, marked = match.group(1), marked or default, None
            current = [line]
        else:
            current.append(line)
        if line == "}" or (len(current) == 1 and line.endswith("}")):
            if group == EAGER:
                kept.extend(current)
            else:
                taken[name] = (group, "\n".join(current))
            current = None
    if current is not None:
        raise ValueError(f"js_runtime/{file_name}: function {name} has no closing line '}}' at the start of a line")
    return "\n".join(kept), taken


def _check_uses(
    text: str, where: str, owner: dict[str, str], group: str | None, outside: dict[str, set[str]]
) -> list[str]:
    """Note in ``outside`` each deferred function ``text`` (the script, or group ``group``) calls from outside its
    group; returns a description of each other use of one."""
    problems: list[str] = []
    # The literals' text blanked out, so that every position is still that of `text`.
    code = _STRING.sub(_blank, text)
    for match in _NAME.finditer(code):
        function = match.group()
        home = owner.get(function)
        if home is None or home == group:
            continue
        rest = code[match.end() : match.end() + 2].lstrip()
        if rest.startswith(":") and code[max(0, match.start() - 40) : match.start()].rstrip()[-1:] in ("{", ",", ""):
            continue  # an object literal's key
        called = rest.startswith("(") and code[max(0, match.start() - 4) : match.start()] != "new "
        if not called and function not in CALLBACKS:
            end = text.find("\n", match.end())
            line = text[text.rfind("\n", 0, match.start()) + 1 : len(text) if end == -1 else end]
            problems.append(f"  {where} uses {function} (group {home}): {line.strip()[:160]}")
            continue
        outside[home].add(function)
    return problems


def _blank(literal: re.Match[str]) -> str:
    quoted = literal.group()
    return quoted[0] + " " * (len(quoted) - 2) + quoted[-1]


def _group_source(
    functions: dict[str, str], exported: list[str], compact: Callable[[str], str], *, ahead: bool = False
) -> str:
    """A group's source, for a direct eval in the runtime's scope: it declares the group's functions in a scope of
    their own, assigns those called from outside to their bindings in the runtime's scope and evaluates to an object
    of them. With ``ahead``, each function is a constant holding it in parentheses, which V8 compiles with the group
    rather than on the function's first call (the group's top level only declares them, so none is used before its
    constant is set)."""
    members = ", ".join(exported)
    assignments = "\n".join(f"{function} = deferredGroup.{function};" for function in exported)
    if ahead:
        body = "\n".join(f"const {name} = ({text});" for name, text in functions.items())
    else:
        body = "\n".join(functions.values())
    return compact(
        f"const deferredGroup = (() => {{\n{body}\nreturn {{ __proto__: null, {members} }};\n}})();\n"
        f"{assignments}\ndeferredGroup;\n//# sourceURL=sandbox-runtime.js\n"
    )
