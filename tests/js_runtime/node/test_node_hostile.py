"""The Node modules keep working when the code replaces the built-ins they use, before or after loading them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from isolate_harness import RunJs

PROGRAM = (Path(__file__).parent / "programs" / "replaced_builtins.js").read_text(encoding="utf-8")

# Accessors on Array.prototype and a replaced array iterator, in place before the modules are compiled: every
# list a module fills is one without a prototype, and none is spread or iterated.
BEFORE_LOADING = """
const refuse = () => { throw new Error('a replaced built-in was called'); };
for (const index of ['0', '1', '2', '3']) {
  Object.defineProperty(Array.prototype, index, { set: refuse, get: refuse, configurable: true });
}
Array.prototype[Symbol.iterator] = refuse;
"""


def outcome(run_js: RunJs, code: str) -> Any:
    result = run_js(code, node=True)
    assert result["error"] is None, result["error"]
    return json.loads(result["result"])


def test_replacing_built_ins_after_loading_changes_no_answer(run_js: RunJs) -> None:
    answer = outcome(run_js, PROGRAM)
    assert answer["same"] is True
    assert len(answer["first"]) == 27


def test_accessors_on_array_prototype_before_loading_change_no_answer(run_js: RunJs) -> None:
    clean = outcome(run_js, PROGRAM)
    hostile = outcome(run_js, BEFORE_LOADING + PROGRAM)
    assert hostile == clean


def test_a_global_the_code_replaces_keeps_the_module_it_came_from(run_js: RunJs) -> None:
    code = (
        "const { Buffer: B } = require('buffer'); globalThis.Buffer = 5;"
        " [typeof require('buffer').Buffer, B.from('ok').toString(), Buffer, require('util').isBuffer(B.alloc(1))]"
    )
    assert run_js(code, node=True)["result"] == ["function", "ok", 5, True]


def test_assigning_buffer_before_first_use_keeps_the_code_s_value(run_js: RunJs) -> None:
    code = "Buffer = 'mine'; [Buffer, typeof require('buffer').Buffer.from]"
    assert run_js(code, node=True)["result"] == ["mine", "function"]
