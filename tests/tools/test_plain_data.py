"""Reading Node's rendering back as plain data: a mismatch of any kind keeps the rendering (the engine-level cases,
Dates, undefined, Maps and the rest, are in tests/codemode/test_result_text.py)."""

from __future__ import annotations

from typing import Any

import pytest

from sandbox_server.tools.plain_data import compact_json


@pytest.mark.parametrize(
    ("rendered", "value", "shown"),
    [
        pytest.param("{ a: 'x', 'b-c': [ 1, 2.5 ] }", {"a": "x", "b-c": [1, 2.5]}, '{"a":"x","b-c":[1,2.5]}',
                     id="plain"),
        pytest.param("[\n  'a\\'b',\n  \"c'd\",\n  `e'\"f`\n]", ["a'b", "c'd", "e'\"f"], '["a\'b","c\'d","e\'\\"f"]',
                     id="every-quote"),
        pytest.param("{ s: 'one\\n' +\n    'two' }", {"s": "one\ntwo"}, '{"s":"one\\ntwo"}', id="joined-string"),
        pytest.param("[ '\\x1B\\x7F' ]", ["\x1b\x7f"], '["\\u001b\\u007f"]', id="escapes"),
    ],
)  # fmt: skip
def test_plain_data_equal_to_the_value_becomes_compact_json(rendered: str, value: Any, shown: str) -> None:
    assert compact_json(rendered, value) == shown


@pytest.mark.parametrize(
    ("rendered", "value"),
    [
        pytest.param("{ a: 1 }", {"a": True}, id="number-against-boolean"),
        pytest.param("{ a: true }", {"a": 1}, id="boolean-against-number"),
        pytest.param("{ a: '1' }", {"a": 1}, id="string-against-number"),
        pytest.param("[ 1 ]", [1, 2], id="fewer-items"),
        pytest.param("{ b: 1, a: 2 }", {"a": 2, "b": 1}, id="another-key-order"),
        pytest.param("{ a: 1, a: 2 }", {"a": 2}, id="a-key-twice"),
        pytest.param("{ a: 1 } extra", {"a": 1}, id="text-after-the-value"),
        pytest.param("{ a: 1", {"a": 1}, id="unclosed"),
        pytest.param("{ a: 'x }", {"a": "x }"}, id="unclosed-string"),
        pytest.param("[ 'a\\q' ]", ["aq"], id="unknown-escape"),
        pytest.param("[ 12n ]", ["12"], id="bigint"),
        pytest.param("Foo { a: 1 }", {"a": 1}, id="class-name"),
        pytest.param("[ -0 ]", [0], id="negative-zero"),
        pytest.param("[ 1e400 ]", [1e308], id="too-large"),
        pytest.param("[" * 100 + "]" * 100, [], id="too-deep"),
    ],
)
def test_anything_else_keeps_the_rendering(rendered: str, value: Any) -> None:
    assert compact_json(rendered, value) is None
