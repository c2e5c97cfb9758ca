"""Arguments at and beyond their limits, of the wrong type, or not valid Unicode: each call gets a clear answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sandbox_server.settings import DEFAULT_MAX_CODE_BYTES, DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_TIMEOUT_MS

from .conftest import Sandbox

pytestmark = pytest.mark.anyio

CHARACTERS = [
    pytest.param("a", id="ascii"),
    pytest.param("\u00e9", id="two-byte"),
    pytest.param("\u20ac", id="three-byte"),
    pytest.param("\U0001f600", id="four-byte"),
]


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def code_of(size: int, character: str) -> tuple[str, int]:
    """JavaScript of exactly ``size`` UTF-8 bytes (a quoted run of ``character``, its length, spaces), and that
    length as JavaScript counts it."""
    frame = "'" + "'.length"
    width = len(character.encode())
    count = (size - len(frame)) // width
    code = "'" + character * count + "'.length" + " " * (size - len(frame) - count * width)
    assert len(code.encode()) == size
    return code, utf16_units(character * count)


def input_of(size: int, character: str) -> tuple[list[str], int]:
    """An input of exactly ``size`` bytes as compact JSON (a run of ``character`` and ASCII padding), and the
    length of the run as JavaScript counts it."""
    frame = len('["",""]')
    width = len(character.encode())
    count = (size - frame) // width
    value = [character * count, "p" * (size - frame - count * width)]
    assert len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()) == size
    return value, utf16_units(character * count)


def assert_argument_error(structured: dict[str, Any], *phrases: str) -> None:
    error = structured["error"]
    assert (structured["ok"], error["kind"], error["name"]) == (False, "arguments", "ArgumentError")
    for phrase in phrases:
        assert phrase in error["message"], error["message"]


@pytest.mark.parametrize("character", CHARACTERS)
async def test_code_of_exactly_the_byte_limit_runs(sandbox: Sandbox, character: str) -> None:
    code, length = code_of(DEFAULT_MAX_CODE_BYTES, character)
    call = await sandbox.run(code)
    assert call.is_error is False
    assert call.structured["result"] == length


@pytest.mark.parametrize("character", CHARACTERS)
async def test_code_one_byte_over_the_limit_is_an_argument_error(sandbox: Sandbox, character: str) -> None:
    code, _ = code_of(DEFAULT_MAX_CODE_BYTES + 1, character)
    call = await sandbox.run(code)
    assert call.is_error is True
    # ASCII code is caught by the schema's maxLength (characters); other code by its size in UTF-8 bytes.
    assert_argument_error(call.structured, str(DEFAULT_MAX_CODE_BYTES))
    if character != "a":
        assert f"code is {DEFAULT_MAX_CODE_BYTES + 1} bytes long" in call.error["message"]
    await sandbox.assert_still_serving()


@pytest.mark.parametrize("character", CHARACTERS)
async def test_input_of_exactly_the_byte_limit_reaches_the_code_whole(sandbox: Sandbox, character: str) -> None:
    value, length = input_of(DEFAULT_MAX_INPUT_BYTES, character)
    call = await sandbox.run("[input[0].length, input[1].length]", input=value)
    assert call.is_error is False
    assert call.structured["result"] == [length, len(value[1])]


@pytest.mark.parametrize("character", CHARACTERS)
async def test_input_one_byte_over_the_limit_is_an_argument_error(sandbox: Sandbox, character: str) -> None:
    value, _ = input_of(DEFAULT_MAX_INPUT_BYTES + 1, character)
    call = await sandbox.run("input.length", input=value)
    assert call.is_error is True
    assert_argument_error(
        call.structured, f"input is {DEFAULT_MAX_INPUT_BYTES + 1} bytes as JSON", str(DEFAULT_MAX_INPUT_BYTES)
    )
    await sandbox.assert_still_serving()


async def test_a_lone_surrogate_in_code_reaches_javascript_as_a_replacement_character(sandbox: Sandbox) -> None:
    # Over stdio and HTTP it comes as a JSON escape (see test_lone_surrogates.py); a caller in the same process
    # passes it as it is. mini-racer passes strings to V8 as UTF-8, so the worker puts U+FFFD, one UTF-16 unit
    # like the surrogate, in its place: positions in error messages still match.
    call = await sandbox.run("['\ud800'.charCodeAt(0), 'x\udc00'.length]")
    assert call.structured["result"] == [0xFFFD, 2]
    error = await sandbox.run("'\ud800\udfff'; null.boom")
    plain = await sandbox.run("'xx'; null.boom")
    assert (error.error["line"], error.error["column"]) == (plain.error["line"], plain.error["column"])


async def test_a_lone_surrogate_in_input_reaches_javascript_unchanged(sandbox: Sandbox) -> None:
    code = "Array.from({ length: input.text.length }, (_, i) => input.text.charCodeAt(i))"
    call = await sandbox.run(code, input={"text": "a\ud800b\udfff"})
    assert call.structured["result"] == [0x61, 0xD800, 0x62, 0xDFFF]
    # Output that carries it back comes out as U+FFFD (see test_output.py).
    echoed = await sandbox.run("input.text", input={"text": "a\ud800b"})
    assert echoed.structured["result"] == "a\ufffdb"


async def test_control_characters_and_nul_in_code_and_input_are_ordinary_characters(sandbox: Sandbox) -> None:
    call = await sandbox.run("['a\x00b\x1b'.length, input.length, input.charCodeAt(1)]", input="x\x00\x7f")
    assert call.structured["result"] == [4, 3, 0]


@pytest.mark.parametrize(
    ("timeout_ms", "applied"),
    [
        pytest.param(10**9, DEFAULT_MAX_TIMEOUT_MS, id="above-the-maximum"),
        pytest.param(2**70, DEFAULT_MAX_TIMEOUT_MS, id="beyond-64-bits"),
        pytest.param(DEFAULT_MAX_TIMEOUT_MS, DEFAULT_MAX_TIMEOUT_MS, id="the-maximum"),
        pytest.param(250.0, 250, id="integral-float"),
    ],
)
async def test_a_time_limit_above_the_maximum_is_lowered_to_it(sandbox: Sandbox, timeout_ms: Any, applied: int) -> None:
    call = await sandbox.run("6 * 7", timeout_ms=timeout_ms)
    assert call.is_error is False
    assert call.structured["result"] == 42
    assert call.structured["timeoutMs"] == applied


@pytest.mark.parametrize(
    ("timeout_ms", "phrase"),
    [
        pytest.param(0, "minimum is 1", id="zero"),
        pytest.param(-1, "minimum is 1", id="negative"),
        pytest.param(-(2**70), "minimum is 1", id="hugely-negative"),
        pytest.param("100", 'got string "100"', id="string"),
        pytest.param(2.5, "got number 2.5", id="fraction"),
        pytest.param(True, "got boolean true", id="boolean"),
        pytest.param(None, "got null", id="null"),
        pytest.param([100], "got array", id="array"),
    ],
)
async def test_an_unusable_time_limit_is_an_argument_error_naming_it(
    sandbox: Sandbox, timeout_ms: Any, phrase: str
) -> None:
    call = await sandbox.run("1", timeout_ms=timeout_ms)
    assert call.is_error is True
    assert_argument_error(call.structured, "timeout_ms", phrase)
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    ("arguments", "phrases"),
    [
        pytest.param({"code": "1", "language": "python"}, ["unexpected argument 'language'"], id="unexpected-field"),
        pytest.param({"code": "1", "Code": "2", "timeoutMs": 5}, ["'Code'", "'timeoutMs'"], id="near-miss-names"),
        pytest.param({}, ["missing required argument 'code'"], id="no-code"),
        pytest.param({"code": ""}, ["minLength is 1"], id="empty-code"),
        pytest.param({"code": ["1"]}, ["argument 'code'", "got array"], id="code-not-a-string"),
        pytest.param({"code": None}, ["argument 'code'", "got null"], id="code-null"),
    ],
)
async def test_malformed_arguments_are_argument_errors_naming_every_problem(
    sandbox: Sandbox, arguments: dict[str, Any], phrases: list[str]
) -> None:
    call = await sandbox.call(arguments)
    assert call.is_error is True
    assert_argument_error(call.structured, *phrases)
    await sandbox.assert_still_serving()


@pytest.mark.parametrize(
    ("value", "code", "expected"),
    [
        pytest.param(10**30, "input", 1e30, id="integer-beyond-doubles"),
        pytest.param(
            {"__proto__": {"polluted": 1}}, "[({}).polluted, Object.keys(input)]", [None, ["__proto__"]], id="proto-key"
        ),
        pytest.param(
            {"constructor": {"prototype": {"polluted": 1}}},
            "[({}).polluted, Object.keys(input)]",
            [None, ["constructor"]],
            id="constructor-key",
        ),
    ],
)
async def test_input_values_arrive_as_json_parse_reads_them(
    sandbox: Sandbox, value: Any, code: str, expected: Any
) -> None:
    # A `__proto__` key becomes an own property of the copy, as JSON.parse makes it; no prototype changes.
    call = await sandbox.run(code, input=value)
    assert call.structured["result"] == expected
