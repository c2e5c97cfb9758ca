"""Every web module keeps the loader's contract: its file shape, what it defines, and that it
works in an isolate whose built-ins the code replaced before first use."""

from __future__ import annotations

import json
import re

import pytest
from loader_stand_in import MODULES, WebIsolate, module_globals, module_source
from py_mini_racer import MiniRacer
from web_harness import shared_require

from js_runtime import web_requires

EXPECTED_GLOBALS = {
    "domexception": ["DOMException"],
    "encoding": ["TextEncoder", "TextDecoder"],
    "base64": ["atob", "btoa"],
    "crypto": ["crypto", "Crypto", "SubtleCrypto", "CryptoKey"],
    "performance": ["performance", "Performance", "PerformanceEntry", "PerformanceMark", "PerformanceMeasure"],
}
# One use of each module, as a first touch.
FIRST_USE = {
    "domexception": "new DOMException('m', 'AbortError').code",
    "encoding": "new TextDecoder().decode(new TextEncoder().encode('h\\u00e9')).length",
    "base64": "atob(btoa('hello')).length",
    "crypto": "crypto.getRandomValues(new Uint8Array(8)).length + crypto.randomUUID().length",
    "performance": "performance.mark('a', { startTime: 1 }).startTime + performance.now()",
}
FIRST_USE_RESULT = {"domexception": 20, "encoding": 2, "base64": 5, "crypto": 44, "performance": 1}
# The shared Node modules a web module may load (its `// requires:` line) come through host.require.
HOST = (
    "{ __proto__: null, seed: new Uint8Array(32).fill(9), now: () => 0, global: (name) => globalThis[name],"
    f" require: {shared_require()} }}"
)


@pytest.mark.parametrize("module", MODULES)
def test_the_file_is_ascii_and_opens_with_the_list_of_its_globals(module: str) -> None:
    text = module_source(module)
    assert text.isascii()
    assert text.split("\n", 1)[0] == "// globals: " + " ".join(EXPECTED_GLOBALS[module])
    assert module_globals(module) == EXPECTED_GLOBALS[module]


@pytest.mark.parametrize("module", MODULES)
def test_the_body_is_one_parenthesised_function_of_host(module: str) -> None:
    body = module_source(module).split("\n", 1)[1].strip()
    if body.startswith("// requires:"):  # the shared Node modules it loads, and nothing else
        requires, body = body.split("\n", 1)
        assert requires.removeprefix("// requires:").split() == list(web_requires()[module])
    assert body.startswith("(function (host) {\n  'use strict';")
    assert body.endswith("})")


@pytest.mark.parametrize("module", MODULES)
def test_no_template_literal_spans_lines(module: str) -> None:
    code = module_source(module)
    assert not [literal for literal in re.findall(r"`[^`]*`", code) if "\n" in literal]


@pytest.mark.parametrize("module", MODULES)
def test_evaluating_and_calling_the_module_defines_no_global(module: str) -> None:
    mr = MiniRacer()
    try:
        before = mr.eval("JSON.stringify(Object.getOwnPropertyNames(globalThis))")
        exported = mr.eval(f"JSON.stringify(Object.keys((0, eval)({json.dumps(module_source(module))})({HOST})))")
        after = mr.eval("JSON.stringify(Object.getOwnPropertyNames(globalThis))")
        assert after == before
        assert json.loads(exported) == EXPECTED_GLOBALS[module]
    finally:
        mr.close()


@pytest.mark.parametrize("module", MODULES)
def test_each_call_of_the_module_function_builds_its_own_objects(module: str) -> None:
    mr = MiniRacer()
    try:
        name = EXPECTED_GLOBALS[module][0]
        code = (
            f"(() => {{ const make = (0, eval)({json.dumps(module_source(module))}); "
            f"return make({HOST}).{name} !== make({HOST}).{name}; }})()"
        )
        assert mr.eval(code) is True
    finally:
        mr.close()


@pytest.mark.parametrize("module", MODULES)
def test_a_first_use_works_after_the_code_replaced_common_built_ins(module: str) -> None:
    web = WebIsolate()
    try:
        web.eval(
            "for (const m of ['push', 'pop', 'map', 'filter', 'forEach', 'join', 'splice', 'slice', 'indexOf', "
            "'includes', 'reduce']) Array.prototype[m] = () => { throw new Error('replaced ' + m); }; "
            "Array.prototype[Symbol.iterator] = function* () { throw new Error('replaced iterator'); }; "
            "Object.prototype.toString = () => 'replaced'; JSON.stringify = () => 'replaced';"
        )
        assert web.eval(FIRST_USE[module]) == FIRST_USE_RESULT[module]
    finally:
        web.close()


def compiled(web: WebIsolate) -> list[str]:
    """The modules whose first global is no longer the loader's getter."""
    return [
        module
        for module, names in EXPECTED_GLOBALS.items()
        if web.eval(f"'value' in Object.getOwnPropertyDescriptor(globalThis, '{names[0]}')")
    ]


def test_domexception_is_compiled_only_when_an_error_needs_it(web: WebIsolate) -> None:
    web.eval("atob(btoa('x')); crypto.subtle.digest('SHA-1', new Uint8Array(1)); performance.measure('m'); 0")
    assert compiled(web) == ["base64", "crypto", "performance"]
    web.eval("try { atob('!'); } catch {} 0")
    assert compiled(web) == ["domexception", "base64", "crypto", "performance"]


@pytest.mark.parametrize("module", MODULES)
def test_the_module_reaches_nothing_beyond_its_host_object(module: str) -> None:
    code = re.sub(r"//[^\n]*", "", module_source(module))
    reaching = [
        r"(?<!host\.)\brequire\s*\(",
        r"\bprocess\b",
        r"\bimport\s*\(",
        r"\bfetch\b",
        r"\bglobalThis\b",
        r"\bFunction\s*\(",
        r"\beval\b",
        r"\bconsole\b",
        r"\bsetTimeout\b",
        r"\bWebAssembly\b",
    ]
    for pattern in reaching:
        assert not re.search(pattern, code), pattern
    uses = set(re.findall(r"host\.(\w+)", code))
    assert uses <= {"seed", "now", "global", "require"}
    # host.require loads only what the header names: the shared Node modules (internal/...).
    assert set(re.findall(r"host\.require\('([^']+)'\)", code)) == set(web_requires()[module])
