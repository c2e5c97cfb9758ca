"""The web platform's pure-computation APIs through execute_js: present, lazily compiled, seeded per call."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest
from mcp import Client

from js_runtime import web_modules
from sandbox_server import build_server
from sandbox_server.server import App

from .conftest import make_settings
from .test_execute_js import run_js

pytestmark = pytest.mark.anyio

WEB_GLOBALS = {
    "TextEncoder", "TextDecoder", "atob", "btoa", "URL", "URLSearchParams", "crypto", "performance", "DOMException",
}  # fmt: skip


@pytest.fixture(scope="module")
async def client() -> AsyncIterator[Client]:
    async with Client(build_server(app=App.create(make_settings(workers=2))), mode="legacy") as connected:
        yield connected


def test_every_documented_web_global_comes_from_a_module() -> None:
    names = {name for names, _source in web_modules().values() for name in names}
    assert names >= WEB_GLOBALS


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("new TextDecoder().decode(new TextEncoder().encode('h\u00e9llo \u20ac'))", "h\u00e9llo \u20ac",
                     id="utf8-round-trip"),
        pytest.param("Array.from(new TextEncoder().encode('\u00e9'))", [195, 169], id="encode"),
        pytest.param("btoa('hello world')", "aGVsbG8gd29ybGQ=", id="btoa"),
        pytest.param("atob('aGVsbG8gd29ybGQ=')", "hello world", id="atob"),
        pytest.param("new URLSearchParams('q=running+shoes&page=2').get('q')", "running shoes", id="search-params"),
        pytest.param("new URL('../c?x=1#h', 'https://example.com/a/b/').href", "https://example.com/a/c?x=1#h",
                     id="relative-url"),
        pytest.param("new URL('https://B\u00fccher.example/').hostname", "xn--bcher-kva.example", id="idna"),
        pytest.param(
            "const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc'));"
            "[...new Uint8Array(d)].map(b => b.toString(16).padStart(2, '0')).join('')",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            id="sha-256",
        ),
        pytest.param("typeof performance.now()", "number", id="performance"),
    ],
)  # fmt: skip
async def test_web_apis_compute_as_in_browsers_and_node(client: Client, code: str, expected: object) -> None:
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["result"] == expected


async def test_random_values_are_fresh_in_every_call(client: Client) -> None:
    code = "[crypto.randomUUID(), Array.from(crypto.getRandomValues(new Uint8Array(16)))]"
    seen_uuids: set[str] = set()
    seen_bytes: set[tuple[int, ...]] = set()
    for _ in range(6):
        _text, structured, is_error = await run_js(client, code)
        assert is_error is False
        uuid, values = structured["result"]
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", uuid)
        seen_uuids.add(uuid)
        seen_bytes.add(tuple(values))
    assert len(seen_uuids) == 6 and len(seen_bytes) == 6


async def test_web_globals_the_code_names_are_compiled_before_it_runs_and_others_when_first_touched(
    client: Client,
) -> None:
    code = """
    const named = Object.getOwnPropertyDescriptor(globalThis, 'URL');
    const name = ['Text', 'Encoder'].join('');
    const before = Object.getOwnPropertyDescriptor(globalThis, name);
    const lazy = typeof before.get === 'function' && !('value' in before);
    new globalThis[name]().encode('a');
    const after = Object.getOwnPropertyDescriptor(globalThis, name);
    [typeof named.value, named.enumerable, lazy, typeof after.value, after.enumerable]
    """
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["result"] == ["function", False, True, "function", False]


async def test_a_web_api_the_code_names_is_unchanged_by_built_ins_it_replaces_first(client: Client) -> None:
    use = (
        "[new URL('https://a.example/x?q=1').searchParams.get('q'), new TextEncoder().encode('hé').length, btoa('hi')]"
    )
    tamper = (
        "String.prototype.slice = () => 's'; Function.prototype.call = () => 'c'; Array.prototype.push = () => 0;"
        " String.prototype.charCodeAt = () => 0;"
    )
    _text, clean, _ = await run_js(client, use)
    text, hostile, is_error = await run_js(client, tamper + use)
    assert is_error is False, text
    assert hostile["result"] == clean["result"] == ["1", 3, "aGk="]


async def test_a_web_global_the_code_assigns_keeps_the_code_value(client: Client) -> None:
    text, structured, is_error = await run_js(client, "globalThis.URL = 42; URL")
    assert is_error is False, text
    assert structured["result"] == 42


async def test_invalid_base64_is_a_dom_exception_as_in_node(client: Client) -> None:
    _text, structured, is_error = await run_js(client, "atob('***')")
    assert is_error is True
    assert structured["error"]["name"] == "InvalidCharacterError"


def test_a_job_carries_only_the_web_modules_its_code_names() -> None:
    from sandbox_server.sandbox.worker.options import web_sources as _web_sources

    assert _web_sources("1 + 1") == {}
    # The web modules throw Node's coded errors: the shared module that makes them goes along with them.
    assert set(_web_sources("new URL('https://a.example/').host")) == {"url", "domexception", "internal/errors"}
    assert set(_web_sources("btoa(new TextDecoder().decode(x))")) == {
        "base64",
        "encoding",
        "domexception",
        "internal/errors",
    }
    # A global reached without its name: every module goes along.
    assert set(_web_sources("globalThis['UR' + 'L']")) == {*web_modules(), "internal/errors"}


async def test_a_web_global_reached_without_its_name_still_works(client: Client) -> None:
    text, structured, is_error = await run_js(client, "new globalThis['UR' + 'L']('https://a.example/x').pathname")
    assert is_error is False, text
    assert structured["result"] == "/x"
