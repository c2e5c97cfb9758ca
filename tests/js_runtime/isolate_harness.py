"""Runs the isolate runtime the way the worker does: a fresh mini-racer isolate per run.

`Isolate` evaluates `source()` in a new isolate and connects a notification to it, as the
worker does; `Isolate.run(code)` calls `run(code, inputJson, optionsJson)`, takes the outcome
it returns or, when that is empty, the one the runtime delivers later, and returns it parsed
from JSON.
"""

from __future__ import annotations

import json
import queue
from collections.abc import Callable
from typing import Any

from py_mini_racer import MiniRacer

from js_runtime import deferred_source, node_modules, source, web_payload

OUTCOME_TIMEOUT_SEC = 10.0
DEFAULT_CAP = 65536

Outcome = dict[str, Any]
RunJs = Callable[..., Outcome]


class Isolate:
    """One isolate with the runtime loaded; `api` is its entry function, whose `run`, `connect`, `warmUp`, `abort`,
    `abortMemory` and `deferredLoaded` properties the tests call."""

    def __init__(self) -> None:
        self.mr = MiniRacer()
        self.api = self.mr.eval(source())
        self.delivered: queue.Queue[Any] = queue.Queue()
        context = self.mr._ctx
        assert context is not None
        self._notification = context._register_js_notification(
            lambda handle: self.delivered.put(context._value_handle_to_python(handle))
        )
        self.api["connect"](self._notification.__enter__(), "cold\n" + deferred_source())

    def run_raw(self, code: str, input_json: str = "", output_cap: int = DEFAULT_CAP, *, node: bool = False) -> Any:
        """The value run() returns: the outcome text, or '' when it is delivered later.

        Every web module's source goes with the run, as the worker sends it for code that may use them all; with
        ``node``, every Node module's too (which also defines ``require``).
        """
        options: dict[str, Any] = {
            "outputCap": output_cap,
            "modules": web_payload(),
            "trackIterators": "console" in code,
        }
        if node:
            options["nodeModules"] = {module.id: module.source for module in node_modules().values()}
        return self.api["run"](code, input_json, json.dumps(options))

    def run(self, code: str, input_json: str = "", output_cap: int = DEFAULT_CAP, *, node: bool = False) -> Outcome:
        result = self.run_raw(code, input_json, output_cap, node=node)
        if result == "":
            result = self.delivered.get(timeout=OUTCOME_TIMEOUT_SEC)[0]
        assert isinstance(result, str)
        outcome: Outcome = json.loads(result)
        return outcome

    def close(self) -> None:
        self._notification.__exit__(None, None, None)
        self.mr.close()


def run_in_fresh_isolate(
    code: str, input_json: str = "", output_cap: int = DEFAULT_CAP, *, node: bool = False
) -> Outcome:
    runtime = Isolate()
    try:
        return runtime.run(code, input_json, output_cap, node=node)
    finally:
        runtime.close()
