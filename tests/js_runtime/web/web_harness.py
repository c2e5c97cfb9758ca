"""Loads a lazily loaded web module (js_runtime/web/<name>.js) into a fresh isolate as the runtime's loader does.

The module text is evaluated with an indirect eval, its function is called once with a test `host` (a fixed
seed, a clock at zero, `global` reading other globals, `require` loading the shared Node modules) and each returned
value becomes a non-enumerable global.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from py_mini_racer import MiniRacer

import js_runtime

WEB_DIR = Path(js_runtime.__file__).parent / "web"
HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures"
NODE = shutil.which("node")
NODE_TIMEOUT_SEC = 60.0

# A module's `// requires:` line names the shared Node modules (internal/...) it loads through `host.require`.
# The stand-in loads each once with a stand-in `inspect` for the few values error messages show (the runtime's own
# is not in these isolates).
STAND_IN_INSPECT = """(value) => {
  if (typeof value === 'string') return value.indexOf("'") === -1 ? "'" + value + "'" : '"' + value + '"';
  if (typeof value === 'bigint') return value + 'n';
  if (Object.is(value, -0)) return '-0';
  if (value !== null && typeof value === 'object') {
    return '[Object: null prototype]' + (Object.keys(value).length === 0 ? ' {}' : '');
  }
  return String(value);
}"""


def shared_require() -> str:
    """A JavaScript expression: a `require` for every shared Node module a web module loads."""
    shared = {
        needed: js_runtime.node_modules()[needed].source for ids in js_runtime.web_requires().values() for needed in ids
    }
    return (
        "((sources, inspect) => { const loaded = Object.create(null); return (id) => {"
        " if (!(id in loaded)) loaded[id] = (0, eval)(sources[id])({ __proto__: null, inspect });"
        " return loaded[id]; }; })(" + json.dumps(shared) + ", " + STAND_IN_INSPECT + ")"
    )


TEST_HOST = (
    "(() => { const h = Object.create(null); h.seed = new Uint8Array(32).fill(7); h.now = () => 0;"
    " h.global = (name) => globalThis[name]; h.require = " + shared_require() + "; return h; })()"
)


def module_source(name: str) -> str:
    return (WEB_DIR / f"{name}.js").read_text(encoding="ascii")


def declared_globals(name: str) -> list[str]:
    first = module_source(name).splitlines()[0]
    assert first.startswith("// globals: ")
    return first.removeprefix("// globals: ").split()


def load(mr: MiniRacer, name: str) -> None:
    """Evaluate module `name` in `mr` and define its globals."""
    mr.eval(
        "(() => { const m = (0, eval)(" + json.dumps(module_source(name)) + ")(" + TEST_HOST + ");"
        " for (const k of " + json.dumps(declared_globals(name)) + ") Object.defineProperty(globalThis, k,"
        " { value: m[k], writable: true, configurable: true, enumerable: false }); })()"
    )


def run_in_node(script: str) -> Any:
    """Run `script` in Node (it must print one JSON document) and return the parsed output."""
    assert NODE is not None
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=NODE_TIMEOUT_SEC, check=True)
    return json.loads(done.stdout)
