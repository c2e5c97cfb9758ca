"""The JavaScript runtime loaded into every isolate before the model's code.

The runtime is plain JavaScript kept in this package as separate files, one job each.
`source()` joins them, in a fixed order, into one script; evaluated in a fresh isolate it
defines `console`, timers, `queueMicrotask` and `structuredClone`, and its completion
value is an object `{ run, abort }`:

- `run(code, inputJson, optionsJson, filesPayload)` runs the model's code and returns the outcome as
  JSON text, or a promise of that text when the run continues after the synchronous part
  (a promise result, pending timers). `filesPayload` (optional) defines the global `files`
  (see `files.js`).
- `abort(reason)` (`"timeout"` or `"memory"`) returns the outcome of a run that the engine
  had to terminate, from the output captured so far.
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["SCRIPT_NAME", "source"]

SCRIPT_NAME = "main.js"
"""The file name the model's code has in stack traces."""

_FILES = (
    "begin.js",
    "primordials.js",
    "text.js",
    "output.js",
    "objects.js",
    "inspect.js",
    "entries.js",
    "layout.js",
    "stack.js",
    "serialize.js",
    "format.js",
    "table.js",
    "console.js",
    "timers.js",
    "clone.js",
    "completion.js",
    "files.js",
    "run.js",
    "end.js",
)


@functools.cache
def source() -> str:
    """Return the full runtime script, the files of this package joined in load order.

    Every isolate parses this script before its call, and parsing is most of what loading it costs, so lines
    that are only a comment, blank lines and indentation are left out (about a fifth of the text). The files
    hold no template literal or string that spans lines, so this changes no value the runtime builds.
    """
    package = resources.files(__package__)
    text = "\n".join(package.joinpath(name).read_text(encoding="utf-8") for name in _FILES)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip() and not _is_comment(line))


def _is_comment(line: str) -> bool:
    # No line of code can start with `//` (an empty regular expression does not exist). The `//#` directive
    # that names the script in stack traces stays.
    stripped = line.lstrip()
    return stripped.startswith("//") and not stripped.startswith("//#")
