"""Runs the isolate runtime the way the worker does: a fresh mini-racer isolate per run.

`Isolate` evaluates `source()` in a new isolate; `Isolate.run(code)` calls
`run(code, inputJson, optionsJson)`, waits for the outcome (a string, or a promise of
one) and returns it parsed from JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from py_mini_racer import JSPromise, MiniRacer

from js_runtime import source

OUTCOME_TIMEOUT_SEC = 10.0
DEFAULT_CAP = 65536

Outcome = dict[str, Any]
RunJs = Callable[..., Outcome]


class Isolate:
    """One isolate with the runtime loaded; `api` is the `{ run, abort }` object."""

    def __init__(self) -> None:
        self.mr = MiniRacer()
        self.api = self.mr.eval(source())

    def run_raw(self, code: str, input_json: str = "", output_cap: int = DEFAULT_CAP) -> Any:
        """The value run() returns: the outcome text, or a promise of it."""
        return self.api["run"](code, input_json, json.dumps({"outputCap": output_cap}))

    def run(self, code: str, input_json: str = "", output_cap: int = DEFAULT_CAP) -> Outcome:
        result = self.run_raw(code, input_json, output_cap)
        if isinstance(result, JSPromise):
            result = result.get(timeout=OUTCOME_TIMEOUT_SEC)
        assert isinstance(result, str)
        outcome: Outcome = json.loads(result)
        return outcome

    def close(self) -> None:
        self.mr.close()


def run_in_fresh_isolate(code: str, input_json: str = "", output_cap: int = DEFAULT_CAP) -> Outcome:
    runtime = Isolate()
    try:
        return runtime.run(code, input_json, output_cap)
    finally:
        runtime.close()
