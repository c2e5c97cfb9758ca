"""The JavaScript runtime loaded into every isolate before the model's code.

The runtime is plain JavaScript kept in this package as separate files, one job each.
`source()` joins them, in a fixed order, into one script; evaluated in a fresh isolate it
defines `console`, timers, `queueMicrotask`, `structuredClone` and the web APIs, and its
completion value is the worker's one entry function, `workerRequest` (see `end.js`), which takes
the request as its `this`, a name and, after a line break, the request's text:

- `connect` (with the notification function as the argument; `warm` or `cold`, then
  `deferred_source()`, as the text) hands over the worker's notification function and the
  deferred source, runs the warm-up unless told `cold` (a trivial job, so that V8 compiles the
  runtime's own code before the real one arrives) and returns the empty argument list of every
  later call.
- `job` with `{code, input, options, files}` as JSON text runs the model's code and returns the
  outcome as JSON text, or '' when the run continues after the synchronous part (a promise
  result, pending timers); the outcome then goes to the notification.
- `abort` and `abortMemory` return the outcome of a run that the engine had to terminate, from
  the output captured so far; `settle` hands a host call its answer; `takeDisplays` returns the
  run's images.

The function also carries `run`, `connect`, `warmUp`, `abort`, `abortMemory` and
`deferredLoaded` as properties, for a first job with data-folder files (`run` with arguments)
and for tests. The functions a plain run never calls are not part of the script V8 parses up
front: they travel as a string compiled on first use, by groups (`deferral.py`, `deferred.js`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable
from importlib import resources

from js_runtime import deferral

__all__ = [
    "SCRIPT_NAME",
    "NodeModule",
    "ahead_source",
    "deferred_groups",
    "deferred_source",
    "node_modules",
    "source",
    "web_modules",
    "web_payload",
    "web_requires",
]

SCRIPT_NAME = "main.js"
"""The file name the model's code has in stack traces."""

_FILES = (
    "begin.js",
    "primordials.js",
    "deferred.js",
    "web.js",
    "node.js",
    "packages.js",
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
    "journal.js",
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


def source() -> str:
    """Return the runtime script every isolate evaluates, the files of this package joined in load order.

    Every isolate parses this script before its call, and parsing is most of what loading it costs, so lines
    that are only a comment, blank lines and indentation are left out (about a fifth of the text), and so are the
    functions a plain run never calls (:mod:`js_runtime.deferral`; their source is :func:`deferred_source`). The
    files hold no template literal or string that spans lines, so this changes no value the runtime builds. The
    web and Node modules are not in it: the worker sends those a job uses with the job.
    """
    return _build()[0]


def deferred_source() -> str:
    """The source of the runtime's deferred function groups, which the worker passes to ``connect`` as a string."""
    return _build()[1]


def ahead_source(group: str) -> str:
    """The source of deferred group ``group`` to compile ahead of its first use (see :mod:`js_runtime.deferral`).

    Raises:
        KeyError: There is no such group.
    """
    return _build()[2].ahead[group]


def deferred_groups() -> dict[str, list[str]]:
    """The deferred groups in load order, each with the names of its functions."""
    return _build()[2].groups


@functools.cache
def _build() -> tuple[str, str, deferral.Deferral]:
    package = resources.files(__package__)
    files = [(name, package.joinpath(name).read_text(encoding="utf-8")) for name in _FILES]
    split = deferral.split(files, lambda text: _ascii(_compact(text)))
    texts = [_compact(text) for text in split.texts]
    texts.insert(_FILES.index("deferred.js"), split.declarations)
    texts.insert(_FILES.index("web.js") + 1, _compact(_web_modules_declaration()))
    texts.insert(_FILES.index("node.js") + 2, _compact(_node_modules_declaration()))
    return _ascii("\n".join(text for text in texts if text)), split.deferred, split


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
_REQUIRES_LINE = "// requires:"


@functools.cache
def _web() -> dict[str, tuple[list[str], tuple[str, ...], str]]:
    """Each web module (file stem): its globals, the shared Node modules it loads, its compacted (ASCII) source.

    A file starts with ``// globals: Name ...``, and may go on with ``// requires: internal/...``: the shared
    modules of the built-ins (``js_runtime/node/``) that it loads through its host's ``require``."""
    folder = resources.files(__package__).joinpath("web")
    modules: dict[str, tuple[list[str], tuple[str, ...], str]] = {}
    if not folder.is_dir():
        return modules
    shared = {module_id for module_id in node_modules() if module_id.startswith("internal/")}
    for entry in sorted(folder.iterdir(), key=lambda item: item.name):
        if not entry.name.endswith(".js"):
            continue
        text = entry.read_text(encoding="utf-8")
        first, _, rest = text.partition("\n")
        if not first.startswith(_GLOBALS_LINE):
            raise ValueError(f"js_runtime/web/{entry.name} must start with '{_GLOBALS_LINE} Name ...'")
        requires: tuple[str, ...] = ()
        if rest.startswith(_REQUIRES_LINE):
            line, _, rest = rest.partition("\n")
            requires = tuple(line.removeprefix(_REQUIRES_LINE).split())
            if not set(requires) <= shared:
                raise ValueError(
                    f"js_runtime/web/{entry.name} requires {sorted(set(requires) - shared)}: a web module may load "
                    f"only the shared Node modules ({', '.join(sorted(shared))})"
                )
        names = first.removeprefix(_GLOBALS_LINE).split()
        modules[entry.name.removesuffix(".js")] = (names, requires, _ascii(_compact(rest)))
    return modules


@functools.cache
def web_modules() -> dict[str, tuple[list[str], str]]:
    """The web modules by id (file stem): the globals each defines and its compacted (ASCII) source."""
    return {module_id: (names, text) for module_id, (names, _requires, text) in _web().items()}


@functools.cache
def web_requires() -> dict[str, tuple[str, ...]]:
    """The shared Node modules (``internal/...``) each web module loads, by web module id."""
    return {module_id: requires for module_id, (_names, requires, _text) in _web().items()}


def web_payload(ids: Iterable[str] | None = None) -> dict[str, str]:
    """The sources a run needs for the web modules ``ids`` (all of them by default), by id: theirs, and those of the
    shared Node modules they load, which travel with them (the runtime takes both from the run's ``modules``)."""
    modules, nodes = _web(), node_modules()
    chosen = list(modules) if ids is None else [module_id for module_id in ids if module_id in modules]
    payload = {module_id: modules[module_id][2] for module_id in chosen}
    for module_id in chosen:
        for needed in modules[module_id][1]:
            payload[needed] = nodes[needed].source
    return payload


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
        if module.id.startswith("internal/") and module.requires:
            # A shared module is loaded with a host that offers only inspect (node.js, internalModule).
            raise ValueError(f"js_runtime/node module {module.id} is shared and may load no other module")
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
