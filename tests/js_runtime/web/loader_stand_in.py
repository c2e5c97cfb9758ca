"""Evaluates js_runtime/web modules the way the runtime's loader does, in fresh isolates.

Each module file starts with `// globals: A B` and is one function expression taking
`host`. `WebIsolate` defines every listed global as a getter that compiles the module on
first read, calls it with a test `host` (a fixed seed, a clock the test sets through
`globalThis.__now`, and `require` for the shared Node modules a module's `// requires:` line
names, as web_harness gives it), and replaces the getters by the returned values. With
`runtime=True` the isolate also holds the project's runtime, so `run(code)` shows what
console.log prints for a value.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from functools import cache
from importlib import resources
from typing import Any

import pytest
from isolate_harness import Isolate
from py_mini_racer import JSPromise, MiniRacer
from web_harness import shared_require

from js_runtime import source

MODULES = ("domexception", "encoding", "base64", "crypto", "performance")
TEST_SEED = list(range(1, 33))
TIMEOUT_SEC = 10.0
NODE = shutil.which("node")
requires_node = pytest.mark.skipif(NODE is None, reason="node is not on PATH")


@cache
def module_source(name: str) -> str:
    return resources.files("js_runtime").joinpath("web", name + ".js").read_text(encoding="ascii")


def module_globals(name: str) -> list[str]:
    first = module_source(name).split("\n", 1)[0]
    assert first.startswith("// globals: "), first
    return first[len("// globals: ") :].split(" ")


# The loader stand-in: `sources` maps module names to their text, `seed` is the test seed, `require` loads the
# shared Node modules (web_harness.shared_require).
LOADER = """
(function (sources, names, seed, require) {
  const compiled = {};
  const seedBytes = new Uint8Array(seed);
  const defineProperty = Object.defineProperty;
  const indirectEval = eval;
  function host() {
    const fresh = new Uint8Array(32);
    for (let i = 0; i < 32; i++) fresh[i] = seedBytes[i];
    return Object.freeze({ __proto__: null, seed: fresh,
      now: () => globalThis.__now === undefined ? 0 : globalThis.__now,
      global: (name) => globalThis[name], require });
  }
  function load(module) {
    if (compiled[module]) return;
    compiled[module] = true;
    const exports = indirectEval(sources[module])(host());
    const list = names[module];
    for (let i = 0; i < list.length; i++) {
      defineProperty(globalThis, list[i], { value: exports[list[i]], writable: true, configurable: true,
        enumerable: false });
    }
  }
  for (const module in names) {
    const list = names[module];
    for (let i = 0; i < list.length; i++) {
      const name = list[i];
      defineProperty(globalThis, name, { configurable: true, get() { load(module); return globalThis[name]; } });
    }
  }
})
"""


class WebIsolate:
    """A fresh isolate with the web modules' globals installed lazily."""

    def __init__(self, seed: list[int] | None = None, runtime: bool = False) -> None:
        self.mr = MiniRacer()
        self.api = self.mr.eval(source()) if runtime else None
        self._runtime: Isolate | None = None
        sources = {name: module_source(name) for name in MODULES if _exists(name)}
        names = {name: module_globals(name) for name in sources}
        self.mr.eval(
            f"({LOADER})({json.dumps(sources)}, {json.dumps(names)}, {json.dumps(seed or TEST_SEED)},"
            f" {shared_require()})"
        )

    def eval(self, code: str) -> Any:
        """The value of `code`, awaited if it is a promise."""
        result = self.mr.eval(code, timeout_sec=TIMEOUT_SEC)
        if isinstance(result, JSPromise):
            result = result.get(timeout=TIMEOUT_SEC)
        return result

    def json(self, code: str) -> Any:
        """The value of `code` (awaited), passed through JSON."""
        return json.loads(self.eval(f"(async () => JSON.stringify(await ({code})))()"))

    def run(self, code: str) -> dict[str, Any]:
        """The runtime's outcome for `code` (needs runtime=True): the real runtime, with its own loader of the
        web modules, in an isolate of its own connected as the worker connects it."""
        assert self.api is not None
        if self._runtime is None:
            self._runtime = Isolate()
        return self._runtime.run(code)

    def close(self) -> None:
        if self._runtime is not None:
            self._runtime.close()
        self.mr.close()


def _exists(name: str) -> bool:
    return resources.files("js_runtime").joinpath("web", name + ".js").is_file()


def node_json(code: str) -> Any:
    """Run `code` (an expression, awaited) in node and return its value through JSON."""
    assert NODE is not None
    script = f"(async () => {{ process.stdout.write(JSON.stringify(await ({code}))); }})()"
    completed = subprocess.run([NODE, "-"], input=script, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(completed.stdout)
