"""The type skipper and the scanner follow nesting of any depth without recursion, or stop with TypeTooDeep where
a type nests without brackets past their bound."""

from __future__ import annotations

import pytest

from sandbox_server.sandbox.source.type_ends import MAX_TYPE_DEPTH, Scanner, TypeEnd, TypeTooDeep


def conditional(levels: int) -> bytes:
    return b"A extends B ? " * levels + b"C" + b" : D" * levels


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(conditional(MAX_TYPE_DEPTH - 1), id="conditional"),
        pytest.param(b"() => " * (MAX_TYPE_DEPTH // 2 - 1) + b"X", id="function-types"),
        pytest.param(b"keyof " * 10_000 + b"X", id="type-operators-any-number"),
        pytest.param(b"A<" * 10_000 + b"X" + b">" * 10_000, id="brackets-any-depth"),
    ],
)
def test_a_type_within_the_bound_ends_where_it_ends(text: bytes) -> None:
    assert TypeEnd(Scanner(text + b"\nnext")).type(0) == len(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(conditional(MAX_TYPE_DEPTH + 1), id="conditional"),
        pytest.param(b"() => " * (MAX_TYPE_DEPTH + 1) + b"X", id="function-types"),
    ],
)
def test_a_type_nested_past_the_bound_is_left_to_the_tree_and_the_skipper_stays_usable(text: bytes) -> None:
    types = TypeEnd(Scanner(text + b"\n" + conditional(3)))
    with pytest.raises(TypeTooDeep):
        types.type(0)
    assert types.type(len(text) + 1) == len(text) + 1 + len(conditional(3))


@pytest.mark.parametrize(
    ("text", "token"),
    [
        pytest.param(b"`${" * 20_000 + b"1" + b"}`" * 20_000, None, id="templates-in-substitutions"),
        pytest.param(b"`a${ {b: `c${ {d: 1}.d }`}.b }e`", None, id="braces-in-substitutions"),
        pytest.param(b"`a${ '}' }b` + 1", b"`a${ '}' }b`", id="brace-in-a-string"),
        pytest.param(b"`a\\${b}` c", b"`a\\${b}`", id="escaped-substitution"),
        pytest.param(b"`a${ b /* } */ }c` d", b"`a${ b /* } */ }c`", id="brace-in-a-comment"),
        pytest.param(b"`open${ `inner", None, id="unterminated"),
    ],
)
def test_a_template_literal_is_one_token_however_deep_its_substitutions(text: bytes, token: bytes | None) -> None:
    assert Scanner(text).token(0).text == (text if token is None else token)
