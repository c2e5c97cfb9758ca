"""Prints the first-use cost of a web module in fresh mini-racer isolates (medians; no assertions).

`.venv/bin/python tests/js_runtime/web/measure_first_use.py url "new URL('https://example.com/?q=a+b').href"`
times, in each of many fresh isolates: an empty eval (the cost of one call into the isolate, included in every
step below), the module text's evaluation (compile), the call of its function with a host, and the given
first use, run twice (the second run shows what is left once the code is compiled).
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from py_mini_racer import MiniRacer
from web_harness import TEST_HOST, declared_globals, module_source

RUNS = 100


def main(name: str, first_use: str) -> None:
    steps = {
        "empty eval": "0",
        "compile": "globalThis.__f = (0, eval)(" + json.dumps(module_source(name)) + "); 0",
        "call": "globalThis.__m = __f("
        + TEST_HOST
        + "); "
        + " ".join(f"globalThis.{g} = __m.{g};" for g in declared_globals(name))
        + " 0",
        "first use": first_use,
        "second use": first_use,
    }
    times: dict[str, list[float]] = {step: [] for step in steps}
    for _ in range(RUNS):
        mr = MiniRacer()
        try:
            mr.eval("1")
            for step, code in steps.items():
                start = time.perf_counter()
                mr.eval(code)
                times[step].append(time.perf_counter() - start)
        finally:
            mr.close()
    size = len(module_source(name))
    sys.stdout.write(f"{name}.js: {size} bytes, medians of {RUNS} fresh isolates\n")
    for step, values in times.items():
        sys.stdout.write(f"  {step:<11} {statistics.median(values) * 1000:.3f} ms\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
