"""``python -m benchmarks --only web_first_use``: what each lazily loaded web module costs
on first use (compile + first call), in fresh isolates in this process.

Each sample is one fresh isolate with the web globals installed as lazy getters (a stand-in
for the runtime's loader, untimed). The first-use time is the process CPU time (all
threads, so other load on the machine moves it less than wall time) of one eval that
touches the module, minus that of an eval of `0` just before it on the same isolate
(mini-racer's own per-eval cost). "compile only" evaluates the module text to its function
without calling it.
"""

from __future__ import annotations

import json
import statistics
import time
from importlib import resources

from py_mini_racer import MiniRacer

MODULES = ("domexception", "encoding", "base64", "crypto", "performance", "url")
FIRST_USE = {
    "domexception": "new DOMException('m', 'AbortError').code",
    "encoding": "new TextDecoder().decode(new TextEncoder().encode('h\\u00e9llo')).length",
    "base64": "atob(btoa('hello world')).length",
    "crypto": "crypto.getRandomValues(new Uint8Array(16)).length",
    "crypto.randomUUID": "crypto.randomUUID().length",
    "crypto.subtle.digest SHA-256": "void crypto.subtle.digest('SHA-256', new Uint8Array(3))",
    "crypto.subtle.digest SHA-512": "void crypto.subtle.digest('SHA-512', new Uint8Array(3))",
    "performance": "performance.now()",
    "url": "new URL('https://example.com/a?b=1#c').searchParams.get('b')",
    "atob error (+ DOMException)": "(() => { try { atob('!'); } catch (e) { return e.code; } })()",
}

LOADER = """
(function (sources, names) {
  const compiled = {};
  function load(module) {
    if (compiled[module]) return;
    compiled[module] = true;
    const host = { __proto__: null, seed: new Uint8Array(32), now: () => 0, global: (name) => globalThis[name] };
    const exports = (0, eval)(sources[module])(host);
    for (const name of names[module]) {
      Object.defineProperty(globalThis, name, { value: exports[name], writable: true, configurable: true });
    }
  }
  for (const module in names) {
    for (const name of names[module]) {
      Object.defineProperty(globalThis, name, { configurable: true, get() { load(module); return globalThis[name]; } });
    }
  }
})
"""


def source(module: str) -> str:
    return resources.files("js_runtime").joinpath("web", module + ".js").read_text(encoding="ascii")


def prepared() -> MiniRacer:
    sources = {m: source(m) for m in MODULES}
    names = {m: text.split("\n", 1)[0].removeprefix("// globals: ").split(" ") for m, text in sources.items()}
    mr = MiniRacer()
    mr.eval(f"({LOADER})({json.dumps(sources)}, {json.dumps(names)})")
    return mr


def timed(code: str, runs: int) -> list[float]:
    """Process CPU milliseconds of one eval of `code` in a fresh prepared isolate, less an eval
    of `0` just before it on the same isolate (paired, so drift in machine load cancels)."""
    samples = []
    for _ in range(runs):
        mr = prepared()
        try:
            mr.eval("1")
            start = time.process_time()
            mr.eval("0")
            middle = time.process_time()
            mr.eval(code)
            end = time.process_time()
            samples.append(((end - middle) - (middle - start)) * 1000)
        finally:
            mr.close()
    return samples


def report(quick: bool = False) -> str:
    """The study's lines: each module's compile-only cost and each first use, over 100 fresh isolates (20 with
    ``quick``)."""
    runs = 20 if quick else 100
    lines = [f"process CPU ms beyond an eval of `0`, median and 90th percentile of {runs} fresh isolates"]
    lines.append(f"{'module':<16}{'bytes':>8}{'compile only':>15}")
    for module in MODULES:
        text = source(module)
        compile_only = statistics.median(timed(f"void (0, eval)({json.dumps(text)})", runs))
        lines.append(f"{module:<16}{len(text):>8}{compile_only:>12.3f} ms")
    lines.append(f"\n{'first use (compile + first call)':<40}{'median':>10}{'p90':>10}")
    for label, code in FIRST_USE.items():
        samples = sorted(timed(code, runs))
        lines.append(f"{label:<40}{statistics.median(samples):>7.3f} ms{samples[int(len(samples) * 0.9)]:>7.3f} ms")
    return "## Web modules, first use\n\n```\n" + "\n".join(lines) + "\n```\n"
