"""URL and URLSearchParams (js_runtime/web/url.js) against Node 20: the recorded corpus, a live differential
run when `node` is on PATH, the places where this module follows the URL Standard rather than Node, printing,
and the module contract."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from py_mini_racer import MiniRacer
from web_harness import FIXTURES, HERE, NODE, declared_globals, load, module_source, run_in_node, shared_require

PROBE = (HERE / "url_probe.js").read_text(encoding="utf-8")
FUZZ_PROBE = (HERE / "url_fuzz_probe.js").read_text(encoding="utf-8")
INSPECT_PROBE = (HERE / "url_inspect_probe.js").read_text(encoding="utf-8")
STANDIN = (HERE / "inspect_standin.js").read_text(encoding="utf-8")


def _recorded() -> tuple[dict[str, Any], dict[str, str]]:
    url: dict[str, Any] = {}
    shown: dict[str, str] = {}
    lines = (FIXTURES / "url_node.jsonl").read_text(encoding="ascii").splitlines()
    assert json.loads(lines[0])["node"].startswith("v20.")
    for line in lines[1:]:
        kind, case, outcome = json.loads(line)
        (url if kind == "url" else shown)[case] = outcome
    return url, shown


RECORDED_URL, RECORDED_INSPECT = _recorded()

# Where Node 20 departs from the URL Standard, this module follows the standard (see test_standard_over_node).
NODE_DEVIATIONS = {
    'resolve ["/..","sc://h/a/b"]',
    'resolve ["/..","sc:/a/b"]',
    "enumerable members",
}


def _eval_json(mr: MiniRacer, expression: str) -> Any:
    return json.loads(mr.eval(f"JSON.stringify({expression})"))


@pytest.fixture(scope="module")
def url_isolate() -> Iterator[MiniRacer]:
    mr = MiniRacer()
    try:
        load(mr, "url")
        yield mr
    finally:
        mr.close()


@pytest.fixture(scope="module")
def corpus_results(url_isolate: MiniRacer) -> dict[str, Any]:
    results = _eval_json(url_isolate, f"({PROBE})(URL, URLSearchParams)")
    return dict(results)


def test_the_corpus_has_several_hundred_recorded_cases() -> None:
    assert len(RECORDED_URL) > 1000
    assert sum(case.startswith("resolve ") for case in RECORDED_URL) > 200
    assert sum(case.startswith("set ") for case in RECORDED_URL) > 400


@pytest.mark.parametrize("case", sorted(set(RECORDED_URL) - NODE_DEVIATIONS))
def test_the_module_answers_as_node_20_recorded(case: str, corpus_results: dict[str, Any]) -> None:
    assert corpus_results[case] == RECORDED_URL[case]


@pytest.mark.skipif(NODE is None, reason="node is not on PATH")
def test_the_module_answers_as_the_installed_node_on_the_corpus(corpus_results: dict[str, Any]) -> None:
    live = dict(run_in_node(f"console.log(JSON.stringify(({PROBE})(URL, URLSearchParams)))"))
    differing = sorted(case for case in live if live[case] != corpus_results[case] and case not in NODE_DEVIATIONS)
    assert differing == []


@pytest.mark.skipif(NODE is None, reason="node is not on PATH")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_module_answers_as_the_installed_node_on_generated_urls(seed: int, url_isolate: MiniRacer) -> None:
    call = f"({FUZZ_PROBE})(URL, URLSearchParams, {seed}, 3000)"
    mine = _eval_json(url_isolate, call)
    node = run_in_node(f"console.log(JSON.stringify({call}))")
    assert len(mine) == len(node) > 3000
    differing = [(m[0], m[1], n[1]) for m, n in zip(mine, node, strict=True) if m != n]
    assert differing[:5] == []


def test_a_plus_in_a_query_means_a_space(url_isolate: MiniRacer) -> None:
    got = _eval_json(
        url_isolate,
        "[new URLSearchParams('q=running+shoes').get('q'),"
        " new URL('https://shop.example/search?q=running+shoes&page=2').searchParams.get('q')]",
    )
    assert got == ["running shoes", "running shoes"]


def test_an_invalid_url_throws_a_type_error_with_node_code_and_input(url_isolate: MiniRacer) -> None:
    got = _eval_json(
        url_isolate,
        "(() => { try { new URL('nope'); } catch (e) {"
        " return [e instanceof TypeError, e.name, e.message, e.code, e.input, Object.keys(e)]; } })()",
    )
    assert got == [True, "TypeError", "Invalid URL", "ERR_INVALID_URL", "nope", ["code", "input"]]


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        pytest.param(
            "new URL('/..', 'sc://h/a/b').href", "sc://h/", id="dot-dot-keeps-the-root-of-a-hierarchical-path"
        ),
        pytest.param("URL.canParse('x#f', 'sc:opaque')", False, id="opaque-base-only-takes-a-fragment"),
        pytest.param(
            "new URLSearchParams('k=%FF\\u00e9').get('k')", "\ufffd\u00e9", id="form-decoding-keeps-non-ascii-text"
        ),
        pytest.param("typeof URL.createObjectURL", "undefined", id="no-blob-urls"),
    ],
)
def test_standard_over_node(url_isolate: MiniRacer, expression: str, expected: Any) -> None:
    # Node 20 answers sc://h, true, '\ufffd\ufffd' and a function: these are its departures from the standard.
    assert _eval_json(url_isolate, expression) == expected


@pytest.mark.parametrize(
    ("host", "ascii"),
    [
        pytest.param("m\u00fcnchen.de", "xn--mnchen-3ya.de", id="umlaut"),
        pytest.param("M\u00dcNCHEN.DE", "xn--mnchen-3ya.de", id="uppercase"),
        pytest.param("\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25\uff0ecom", "example.com", id="fullwidth"),
        pytest.param("example\u3002com", "example.com", id="ideographic-full-stop"),
        pytest.param("\u4f8b\u3048.\u30c6\u30b9\u30c8", "xn--r8jz45g.xn--zckzah", id="japanese"),
        pytest.param("fa\u00df.de", "xn--fa-hia.de", id="sharp-s-kept"),
        pytest.param("\u0391\u0392\u0393.gr", "xn--mxacd.gr", id="greek-capitals"),
        pytest.param("a\u00adb.com", "ab.com", id="soft-hyphen-ignored"),
        pytest.param("\u2603.net", "xn--n3h.net", id="symbol"),
    ],
)
def test_domain_names_map_to_ascii_as_in_node(url_isolate: MiniRacer, host: str, ascii: str) -> None:
    assert _eval_json(url_isolate, f"new URL('http://' + {json.dumps(host)} + '/').hostname") == ascii


def test_search_params_stay_linked_to_their_url(url_isolate: MiniRacer) -> None:
    got = _eval_json(
        url_isolate,
        "(() => { const u = new URL('https://h/p?a=1'); const p = u.searchParams; p.append('b', 'x y');"
        " const first = u.href; u.search = '?c=3'; return [first, p.get('c'), p.has('a'), u.searchParams === p]; })()",
    )
    assert got == ["https://h/p?a=1&b=x+y", "3", False, True]


@pytest.fixture(scope="module")
def shown_by_module(url_isolate: MiniRacer) -> dict[str, str]:
    results = _eval_json(url_isolate, f"({INSPECT_PROBE})(URL, URLSearchParams, {STANDIN})")
    return dict(results)


@pytest.mark.parametrize("case", sorted(RECORDED_INSPECT))
def test_printing_matches_node_through_the_custom_inspect_method(case: str, shown_by_module: dict[str, str]) -> None:
    assert shown_by_module[case] == RECORDED_INSPECT[case]


def test_the_stand_in_inspect_matches_node_on_plain_values() -> None:
    # The printing test relies on the stand-in laying out plain values as Node does.
    values = (
        "[{ a: 1, b: 'x' }, [1, 'two'],"
        " { list: ['aaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbbbbbbb', 'ccccccccccccccccccccccccccc'] }]"
    )
    with MiniRacer() as mr:
        mine = json.loads(mr.eval(f"JSON.stringify({values}.map((v) => ({STANDIN})(v)))"))
    expected = [
        "{ a: 1, b: 'x' }",
        "[ 1, 'two' ]",
        "{\n  list: [\n    'aaaaaaaaaaaaaaaaaaaa',\n    'bbbbbbbbbbbbbbbbbbbbbbbbb',\n"
        "    'ccccccccccccccccccccccccccc'\n  ]\n}",
    ]
    assert mine == expected
    if NODE is not None:
        assert run_in_node(f"console.log(JSON.stringify({values}.map((v) => require('util').inspect(v))))") == expected


def test_to_string_tags_are_those_of_the_web_idl(url_isolate: MiniRacer) -> None:
    got = _eval_json(
        url_isolate,
        "[URL, URLSearchParams].map((C) => Object.getOwnPropertyDescriptor(C.prototype, Symbol.toStringTag))"
        ".concat([Object.prototype.toString.call(new URLSearchParams().entries())])",
    )
    assert got == [
        {"value": "URL", "writable": False, "enumerable": False, "configurable": True},
        {"value": "URLSearchParams", "writable": False, "enumerable": False, "configurable": True},
        "[object URLSearchParams Iterator]",
    ]


def test_the_module_keeps_working_when_the_caller_replaces_built_ins_after_first_use() -> None:
    with MiniRacer() as mr:
        load(mr, "url")
        mr.eval(
            "new URL('http://first.use/');"
            " Array.prototype.push = () => { throw new Error('push'); };"
            " Array.prototype.map = () => { throw new Error('map'); };"
            " String.prototype.replace = () => { throw new Error('replace'); };"
            " String.prototype.toLowerCase = () => 'x'; String.prototype.indexOf = () => -1;"
            " String.prototype.slice = () => ''; RegExp.prototype.exec = () => null;"
        )
        got = _eval_json(
            mr,
            "(() => { const u = new URL('HTTPS://M\\u00dcNCHEN.de/a/../b?q=a+b#f'); u.searchParams.append('n', '1');"
            " return [u.href, u.searchParams.get('q'), new URLSearchParams({ k: 'v w' }).toString()]; })()",
        )
    assert got == ["https://xn--mnchen-3ya.de/b?q=a+b&n=1#f", "a b", "k=v+w"]


def test_the_module_file_follows_the_lazy_module_contract() -> None:
    text = module_source("url")
    lines = text.splitlines()
    assert lines[0] == "// globals: URL URLSearchParams"
    assert text.isascii()
    unquoted = re.sub(r"'(?:\\.|[^'\\\n])*'|\"(?:\\.|[^\"\\\n])*\"", "", text)
    assert "`" not in re.sub(r"//.*", "", unquoted), "the module uses no template literals"
    body = [line for line in lines[1:] if not line.startswith("//")]
    assert body[0].startswith("(function (host) {")
    assert body[1].strip() == "'use strict';"
    assert body[-1] == "})"


def test_the_module_defines_only_what_it_returns() -> None:
    with MiniRacer() as mr:
        before = set(json.loads(mr.eval("JSON.stringify(Object.getOwnPropertyNames(globalThis))")))
        host = "{ __proto__: null, require: " + shared_require() + " }"
        got = json.loads(
            mr.eval("JSON.stringify(Object.keys((0, eval)(" + json.dumps(module_source("url")) + ")(" + host + ")))")
        )
        after = set(json.loads(mr.eval("JSON.stringify(Object.getOwnPropertyNames(globalThis))")))
    assert got == declared_globals("url")
    assert after == before
