"""What console.log shows for the web globals, as Node 20 prints them.

The custom inspect methods are exercised with a small stand-in for Node's inspect (one
line, honouring `depth`), against Node's `util.inspect(value, { breakLength: Infinity })`
recorded below; errors and plain classes go through the project's own runtime.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from loader_stand_in import NODE, WebIsolate, requires_node

STAND_IN_INSPECT = r"""
(function show(value) {
  function inspect(v, options, level = 0) {
    const depth = options && options.depth !== undefined ? options.depth : 2;
    if (typeof v === 'string') return "'" + v + "'";
    if (v === null || typeof v !== 'object') return String(v);
    if (depth !== null && level > depth) return Array.isArray(v) ? '[Array]' : '[Object]';
    if (Array.isArray(v)) return '[ ' + v.map((x) => inspect(x, options, level + 1)).join(', ') + ' ]';
    const keys = Object.keys(v);
    if (keys.length === 0) return '{}';
    return '{ ' + keys.map((k) => k + ': ' + inspect(v[k], options, level + 1)).join(', ') + ' }';
  }
  const custom = value[Symbol.for('nodejs.util.inspect.custom')];
  const shown = custom.call(value, 2, { depth: 2 }, inspect);
  return typeof shown === 'string' ? shown : inspect(shown, { depth: 2 });
})
"""

# util.inspect(value, { breakLength: Infinity }) in Node 20.
NODE_PRINTS = [
    ("new TextEncoder()", "{ encoding: 'utf-8' }"),
    ("new TextDecoder()", "TextDecoder { encoding: 'utf-8', fatal: false, ignoreBOM: false }"),
    (
        "new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true })",
        "TextDecoder { encoding: 'utf-16le', fatal: true, ignoreBOM: true }",
    ),
    ("new TextDecoder('latin1')", "TextDecoder { encoding: 'windows-1252', fatal: false, ignoreBOM: false }"),
    (
        "performance.mark('a', { startTime: 5 })",
        "PerformanceMark { name: 'a', entryType: 'mark', startTime: 5, duration: 0, detail: null }",
    ),
    (
        "performance.measure('m', { start: 1, end: 4, detail: 'x' })",
        "PerformanceMeasure { name: 'm', entryType: 'measure', startTime: 1, duration: 3, detail: 'x' }",
    ),
    (
        "performance.mark('b', { startTime: 2, detail: { k: [1, 2] } })",
        "PerformanceMark { name: 'b', entryType: 'mark', startTime: 2, duration: 0, detail: { k: [Array] } }",
    ),
]


@pytest.mark.parametrize(("expression", "printed"), NODE_PRINTS, ids=[e for e, _ in NODE_PRINTS])
def test_custom_inspection_gives_what_node_prints(web: WebIsolate, expression: str, printed: str) -> None:
    assert web.eval(f"{STAND_IN_INSPECT}({expression})") == printed


@requires_node
def test_the_recorded_printed_forms_are_what_node_prints_now() -> None:
    assert NODE is not None
    script = (
        f"const cases = {json.dumps([e for e, _ in NODE_PRINTS])}; process.stdout.write(JSON.stringify(cases.map("
        "(c) => require('util').inspect((0, eval)(c), { breakLength: Infinity }))));"
    )
    completed = subprocess.run([NODE, "-e", script], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(completed.stdout) == [p for _, p in NODE_PRINTS]


def test_performance_shows_its_time_origin(web: WebIsolate) -> None:
    printed = web.eval(f"{STAND_IN_INSPECT}(performance)")
    assert printed == "Performance { timeOrigin: " + web.eval("String(performance.timeOrigin)") + " }"


RUNTIME_PRINTS = [
    pytest.param(
        "console.log(new DOMException('bad thing', 'InvalidCharacterError'))",
        "DOMException [InvalidCharacterError]: bad thing\n    at main.js:1:13\n",
        id="domexception",
    ),
    pytest.param(
        "console.log(new DOMException())", "DOMException [Error]\n    at main.js:1:13\n", id="domexception-default"
    ),
    pytest.param(
        "console.log({ e: new DOMException('x', 'AbortError') })",
        "{\n  e: DOMException [AbortError]: x\n      at main.js:1:18\n}\n",
        id="domexception-nested",
    ),
    pytest.param(
        "try { atob('!'); } catch (e) { console.log(String(e), e.code); }",
        "InvalidCharacterError: Invalid character 5\n",
        id="atob-error-string",
    ),
    pytest.param(
        "try { atob(); } catch (e) { console.log(e.stack.split('\\n')[0]); console.log(String(e)); }",
        'TypeError [ERR_MISSING_ARGS]: The "input" argument must be specified\n'
        'TypeError [ERR_MISSING_ARGS]: The "input" argument must be specified\n',
        id="node-error-header",
    ),
    pytest.param("console.log(crypto, crypto.subtle)", "Crypto {} SubtleCrypto {}\n", id="crypto"),
    pytest.param(
        "const k = await crypto.subtle.importKey('raw', new TextEncoder().encode('key'), "
        "{ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']); console.log(k); console.log([k])",
        "CryptoKey {\n  type: 'secret',\n  extractable: false,\n"
        "  algorithm: { name: 'HMAC', hash: { name: 'SHA-256' }, length: 24 },\n  usages: [ 'sign' ]\n}\n"
        "[\n  CryptoKey {\n    type: 'secret',\n    extractable: false,\n"
        "    algorithm: { name: 'HMAC', hash: { name: 'SHA-256' }, length: 24 },\n    usages: [ 'sign' ]\n  }\n]\n",
        id="cryptokey",
    ),
]


@pytest.mark.parametrize(("code", "stdout"), RUNTIME_PRINTS)
def test_the_runtime_prints_web_values_as_node_does(web_runtime: WebIsolate, code: str, stdout: str) -> None:
    assert web_runtime.run(code)["stdout"] == stdout


def test_an_uncaught_domexception_is_reported_with_its_name_and_message(web_runtime: WebIsolate) -> None:
    error = web_runtime.run("atob('Y')")["error"]
    assert (error["name"], error["message"], error["line"]) == (
        "InvalidCharacterError",
        "The string to be decoded is not correctly encoded.",
        1,
    )


def test_an_error_with_a_node_code_prints_the_code_in_its_header_and_body(web_runtime: WebIsolate) -> None:
    stdout = web_runtime.run("try { new TextDecoder('nope'); } catch (e) { console.log(e); }")["stdout"]
    lines = stdout.splitlines()
    assert lines[0] == 'RangeError [ERR_ENCODING_NOT_SUPPORTED]: The "nope" encoding is not supported'
    assert lines[-2:] == ["  code: 'ERR_ENCODING_NOT_SUPPORTED'", "}"]


@pytest.mark.parametrize(
    "expression", ["new TextEncoder()", "new TextDecoder()", "performance", "performance.mark('a')"]
)
def test_past_the_depth_limit_custom_inspection_hands_the_value_back(web: WebIsolate, expression: str) -> None:
    # Node then prints the class name in brackets, e.g. [TextDecoder].
    code = (
        f"(() => {{ const v = {expression}; return v[Symbol.for('nodejs.util.inspect.custom')](-1, {{}}) === v; }})()"
    )
    assert web.eval(code) is True
