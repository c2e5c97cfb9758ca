"""The JavaScript runtime loaded into every isolate before the model's code.

The runtime is plain JavaScript kept in this package as separate files, one job each.
`source()` joins them, in a fixed order, into one script; evaluated in a fresh isolate it
defines `console`, timers, `queueMicrotask`, `structuredClone` and the web APIs, and its
completion value is the object of entry points the worker uses (see `run.js` and `end.js`):

- `connect(notification, entryName)` hands over the worker's notification function and the
  global name of the job entry; `warmUp()` runs a trivial job so that V8 compiles the
  runtime's own code before the real one arrives.
- `run(code, inputJson, optionsJson, filesPayload)` runs the model's code and returns the
  outcome as JSON text, or '' when the run continues after the synchronous part (a promise
  result, pending timers); the outcome then goes to the notification. `filesPayload`
  (optional) defines the global `files` (see `files.js`).
- `abort()` and `abortMemory()` return the outcome of a run that the engine had to
  terminate, from the output captured so far.

The function declarations of `DEFERRED_FILES` (the rendering code) are not part of the
script V8 parses up front: they travel as a string compiled on first use (`deferred.js`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from importlib import resources

__all__ = ["SCRIPT_NAME", "NodeModule", "node_modules", "source", "web_modules"]

SCRIPT_NAME = "main.js"
"""The file name the model's code has in stack traces."""

_FILES = (
    "begin.js",
    "primordials.js",
    "deferred.js",
    "web.js",
    "node.js",
    "text.js",
    "output.js",
    "objects.js",
    "inspect.js",
    "entries.js",
    "layout.js",
    "stack.js",
    "allocation.js",
    "serialize.js",
    "format.js",
    "table.js",
    "console.js",
    "timers.js",
    "host.js",
    "clone.js",
    "completion.js",
    "files.js",
    "tools.js",
    "display.js",
    "run.js",
    "end.js",
)


DEFERRED_FILES = frozenset({"inspect.js", "entries.js", "layout.js", "table.js"})
"""Files whose function declarations are compiled only when the runtime first calls one of them (see ``deferred.js``).

Their other top-level statements (captured built-ins, constants, state) still run when the runtime loads, where
they were written: only function bodies, which read nothing until they are called, are moved.
"""

_USED_NAME = re.compile(r"(?<![\w$.])[A-Za-z_$][\w$]*")
_DECLARED_NAME = re.compile(r"^(?:(?:async )?function\*? ?|const |let |var |class )([A-Za-z_$][\w$]*)", re.M)
_FUNCTION_START = re.compile(r"(?:async )?function\*? ?([A-Za-z_$][\w$]*) ?\(")


@functools.cache
def source() -> str:
    """Return the full runtime script, the files of this package joined in load order.

    Every isolate parses this script before its call, and parsing is most of what loading it costs, so lines
    that are only a comment, blank lines and indentation are left out (about a fifth of the text). The files
    hold no template literal or string that spans lines, so this changes no value the runtime builds. The web
    modules (``web/*.js``) go in as string literals, compiled only when the code first uses one of their globals.
    """
    package = resources.files(__package__)
    texts = []
    functions: dict[str, str] = {}
    for name in _FILES:
        text = package.joinpath(name).read_text(encoding="utf-8")
        if name in DEFERRED_FILES:
            text = _take_functions(text, name, functions)
        texts.append(_compact(text))
    declarations = _deferred_declarations(functions, "\n".join(texts))
    texts.insert(_FILES.index("deferred.js"), declarations)
    texts.insert(_FILES.index("web.js") + 1, _compact(_web_modules_declaration()))
    texts.insert(_FILES.index("node.js") + 2, _compact(_node_modules_declaration()))
    return _ascii("\n".join(text for text in texts if text))


def _take_functions(text: str, file_name: str, into: dict[str, str]) -> str:
    """``text`` without its top-level function declarations, which go into ``into`` by name.

    The runtime's files are formatted so that a top-level declaration starts a line with ``function`` (or ``async
    function``) and ends at the next line that is only ``}``.
    """
    kept: list[str] = []
    current: list[str] | None = None
    name = ""
    for line in text.splitlines():
        if current is None:
            match = _FUNCTION_START.match(line)
            if match is None:
                kept.append(line)
                continue
            name, current = match.group(1), [line]
        else:
            current.append(line)
        if line == "}" or (len(current) == 1 and line.endswith("}")):
            if name in into:
                raise ValueError(f"js_runtime/{file_name}: a deferred function named {name} is declared twice")
            into[name] = "\n".join(current)
            current = None
    if current is not None:
        raise ValueError(f"js_runtime/{file_name}: function {name} has no closing line '}}' at the start of a line")
    return "\n".join(kept)


def _deferred_declarations(functions: dict[str, str], eager: str) -> str:
    """The source of the deferred functions, as a string constant, and a stand-in for each one the rest calls.

    A stand-in has the deferred function's name in the runtime's scope, so the code that calls it is written as if
    nothing were deferred; the first call compiles all deferred functions (``deferredFunctions()`` in
    ``deferred.js``) and every call is passed on to the real one.
    """
    # Names the rest of the runtime uses (a word not read as a property); an object key such as `{ inspect: ... }`
    # counts too, which only adds a stand-in nobody calls.
    used = set(_USED_NAME.findall(eager))
    called = [name for name in functions if name in used]
    clashes = sorted(set(called) & set(_DECLARED_NAME.findall(eager)))
    if clashes:
        raise ValueError(f"deferred functions have the names of runtime declarations loaded up front: {clashes}")
    body = "\n".join(functions.values())
    exports = ", ".join(called)
    deferred = _compact(f"{body}\n({{ __proto__: null, {exports} }});\n//# sourceURL=sandbox-runtime.js")
    stand_ins = [
        f"function {name}() {{ return ReflectApply(deferredFunctions().{name}, this, arguments); }}" for name in called
    ]
    return "\n".join([f"const DEFERRED_SOURCE = {json.dumps(deferred)};", *stand_ins])


def _ascii(text: str) -> str:
    """``text`` with every character outside ASCII written as a ``\\u`` escape.

    mini-racer hands V8 UTF-8, and V8 keeps a script with any non-ASCII character as two-byte text, converting
    all of it; ASCII source is taken as it is. The runtime holds non-ASCII characters only inside string
    literals (the box drawing of console.table), where an escape means the same character.
    """
    if text.isascii():
        return text
    out = []
    for index, char in enumerate(text):
        code = ord(char)
        if code < 0x80:
            out.append(char)
            continue
        if index and text[index - 1] == "\\":
            raise ValueError(f"a non-ASCII character follows a backslash in the runtime source: {char!r}")
        units = char.encode("utf-16-be")
        out.extend(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    return "".join(out)


def _compact(text: str) -> str:
    return "\n".join(line.strip() for line in text.splitlines() if line.strip() and not _is_comment(line))


_GLOBALS_LINE = "// globals:"


@functools.cache
def web_modules() -> dict[str, tuple[list[str], str]]:
    """The web modules by id (file stem): the globals each defines and its compacted (ASCII) source."""
    folder = resources.files(__package__).joinpath("web")
    modules: dict[str, tuple[list[str], str]] = {}
    if not folder.is_dir():
        return modules
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".js"):
            continue
        text = entry.read_text(encoding="utf-8")
        first, _, rest = text.partition("\n")
        if not first.startswith(_GLOBALS_LINE):
            raise ValueError(f"js_runtime/web/{entry.name} must start with '{_GLOBALS_LINE} Name ...'")
        modules[entry.name.removesuffix(".js")] = (first.removeprefix(_GLOBALS_LINE).split(), _ascii(_compact(rest)))
    return modules


def _web_modules_declaration() -> str:
    # Names only: the worker sends the sources a job needs with the job (``modules`` in its options), so that an
    # isolate whose code uses no web API never holds them.
    entries = [
        f"{{ __proto__: null, id: {json.dumps(stem)}, names: asList({json.dumps(names)}), "
        "source: undefined, getters: undefined }"
        for stem, (names, _text) in web_modules().items()
    ]
    return "const WEB_MODULES = asList([\n" + ",\n".join(entries) + "\n]);"


@dataclasses.dataclass(frozen=True, slots=True)
class NodeModule:
    """One of Node's built-in modules as ``js_runtime/node/*.js`` provides it.

    Attributes:
        id: The name ``require`` takes (without ``node:``).
        globals: Globals the module defines (``Buffer``), compiled on first use like the web APIs.
        requires: Other modules its code loads, which must travel with it.
        source: The compacted (ASCII) source: a function of ``host`` returning the exports.
    """

    id: str
    globals: tuple[str, ...]
    requires: tuple[str, ...]
    source: str


_NODE_HEADERS = ("// module:", "// globals:", "// requires:")


@functools.cache
def node_modules() -> dict[str, NodeModule]:
    """The Node built-in modules by id. Each file starts with the lines ``// module: ID``, ``// globals: ...`` and
    ``// requires: ...`` (the last two may be empty)."""
    folder = resources.files(__package__).joinpath("node")
    modules: dict[str, NodeModule] = {}
    if not folder.is_dir():
        return modules
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".js"):
            continue
        lines = entry.read_text(encoding="utf-8").split("\n")
        fields = []
        for header, line in zip(_NODE_HEADERS, lines, strict=False):
            if not line.startswith(header):
                raise ValueError(f"js_runtime/node/{entry.name} must start with the lines {', '.join(_NODE_HEADERS)}")
            fields.append(line.removeprefix(header).split())
        if len(fields) != 3 or len(fields[0]) != 1:
            raise ValueError(f"js_runtime/node/{entry.name} must name exactly one module in its first line")
        module_id = fields[0][0]
        text = "\n".join(lines[3:])
        modules[module_id] = NodeModule(module_id, tuple(fields[1]), tuple(fields[2]), _ascii(_compact(text)))
    for module in modules.values():
        unknown = set(module.requires) - set(modules)
        if unknown:
            raise ValueError(f"js_runtime/node module {module.id} requires unknown modules {sorted(unknown)}")
    return modules


def _node_modules_declaration() -> str:
    entries = [
        f"{{ __proto__: null, id: {json.dumps(module.id)}, globals: asList({json.dumps(list(module.globals))}), "
        "source: undefined, exports: undefined, getters: undefined, loading: false, partial: undefined }"
        for module in node_modules().values()
    ]
    return "const NODE_MODULES = asList([\n" + ",\n".join(entries) + "\n]);"


def _is_comment(line: str) -> bool:
    # No line of code can start with `//` (an empty regular expression does not exist). The `//#` directive
    # that names the script in stack traces stays.
    stripped = line.lstrip()
    return stripped.startswith("//") and not stripped.startswith("//#")
