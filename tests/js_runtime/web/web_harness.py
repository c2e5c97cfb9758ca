"""Loads a lazily loaded web module (js_runtime/web/<name>.js) into a fresh isolate as the runtime's loader does.

The module text is evaluated with an indirect eval, its function is called once with a test `host` (a fixed
seed, a clock at zero, `global` reading other globals) and each returned value becomes a non-enumerable global.
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

TEST_HOST = (
    "(() => { const h = Object.create(null); h.seed = new Uint8Array(32).fill(7); h.now = () => 0;"
    " h.global = (name) => globalThis[name]; return h; })()"
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
