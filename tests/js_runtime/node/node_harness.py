"""Runs the Node module cases (node_cases.py) in Node 20 and in the sandbox, described the same way in both.

`DESCRIBE` is JavaScript that both engines run: it calls each case (the source of a function of no arguments,
which may be async) and turns what it returns or throws into JSON text, so that the sandbox's answer can be
compared with the one recorded from Node (fixtures/node_modules.json, written by record_node_fixtures.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from isolate_harness import run_in_fresh_isolate

HERE = Path(__file__).parent
FIXTURE = HERE / "fixtures" / "node_modules.json"
NODE = shutil.which("node")
NODE_TIMEOUT_SEC = 120.0
# Room for the JSON of every case of a module in one result.
RESULT_CAP = 16 * 1024 * 1024
# The sandbox's clock shows UTC, and its working directory is `/` (what path.resolve starts from).
NODE_ENV = {"TZ": "UTC"}

DESCRIBE = r"""
(async function describeAll(sources) {
  const hex = (bytes) => Array.from(bytes, (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
  const errorParts = (error) => {
    if (!(error instanceof Error)) return { thrown: show(error, 0) };
    const code = 'code' in error ? show(error.code, 0) : null;
    return [error.constructor.name, error.name, code, String(error.message), String(error)];
  };
  const show = (value, depth) => {
    if (depth > 8) return '[deep]';
    if (value === undefined) return { $: 'undefined' };
    if (typeof value === 'number') {
      return Number.isFinite(value) && !Object.is(value, -0) ? value : { $: 'number', text: Object.is(value, -0) ?
        '-0' : String(value) };
    }
    if (typeof value === 'bigint') return { $: 'bigint', text: String(value) };
    if (typeof value === 'symbol') return { $: 'symbol', text: String(value) };
    if (typeof value === 'function') return { $: 'function', name: value.name };
    if (value === null || typeof value !== 'object') return value;
    if (ArrayBuffer.isView(value)) {
      return { $: value.constructor.name, bytes: hex(new Uint8Array(value.buffer, value.byteOffset,
        value.byteLength)) };
    }
    if (value instanceof ArrayBuffer) return { $: 'ArrayBuffer', bytes: hex(new Uint8Array(value)) };
    if (Array.isArray(value)) return Array.from(value, (item) => show(item, depth + 1));
    if (value instanceof Error) return { $: 'error', error: errorParts(value) };
    if (value instanceof Date) return { $: 'Date', time: show(value.getTime(), 0) };
    if (value instanceof Map) return { $: 'Map', entries: show(Array.from(value), depth + 1) };
    if (value instanceof Set) return { $: 'Set', values: show(Array.from(value), depth + 1) };
    const out = {};
    const prototype = Object.getPrototypeOf(value);
    if (prototype === null) out.$class = null;
    else if (prototype !== Object.prototype) out.$class = String(prototype.constructor && prototype.constructor.name);
    for (const key of Object.keys(value)) out[key] = show(value[key], depth + 1);
    return out;
  };
  const results = [];
  for (const source of sources) {
    let outcome;
    try {
      outcome = { value: show(await (0, eval)('(' + source + ')')(), 0) };
    } catch (error) {
      outcome = { error: errorParts(error) };
    }
    results.push(outcome);
  }
  return JSON.stringify(results);
})
"""


def describe_call(prelude: str, sources: list[str]) -> str:
    """The program that runs `prelude` and then every case, its value the JSON text of the outcomes."""
    return f"{prelude}\n{DESCRIBE}({json.dumps(sources)})"


def sandbox_outcomes(prelude: str, sources: list[str]) -> list[Any]:
    """Each case's outcome in one fresh sandbox isolate with the Node modules."""
    outcome = run_in_fresh_isolate(describe_call(prelude, sources), output_cap=RESULT_CAP, node=True)
    if outcome["error"] is not None:
        raise AssertionError(f"the cases did not run: {outcome['error']}")
    outcomes: list[Any] = json.loads(outcome["result"])
    return outcomes


def node_outcomes(prelude: str, sources: list[str]) -> list[Any]:
    """Each case's outcome in Node."""
    assert NODE is not None
    script = describe_call(prelude, sources) + ".then((text) => process.stdout.write(text))"
    done = subprocess.run(
        [NODE, "-"],
        input=script,
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_SEC,
        check=True,
        env=NODE_ENV,
        cwd="/",
    )
    outcomes: list[Any] = json.loads(done.stdout)
    return outcomes


_PID = re.compile(r"^\(node:\d+\) ", re.M)


def node_printed(program: str) -> dict[str, str]:
    """What a program prints in Node, with the process id of warnings written as `PID`."""
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-"],
        input=program,
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT_SEC,
        check=True,
        env=NODE_ENV,
        cwd="/",
    )
    return {"stdout": done.stdout, "stderr": _PID.sub("(node:PID) ", done.stderr)}


def sandbox_printed(program: str) -> dict[str, str]:
    """What a program prints in the sandbox, with the process id of warnings written as `PID`."""
    outcome = run_in_fresh_isolate(program, node=True)
    if outcome["error"] is not None:
        raise AssertionError(f"the program failed: {outcome['error']}")
    return {"stdout": outcome["stdout"], "stderr": _PID.sub("(node:PID) ", outcome["stderr"])}
