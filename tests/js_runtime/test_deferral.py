"""How js_runtime/deferral.py splits the runtime: what it moves, what it keeps, and the mistakes it refuses."""

from __future__ import annotations

import pytest

import js_runtime
from js_runtime import deferral


def _compact(text: str) -> str:
    lines = text.splitlines()
    return "\n".join(line.strip() for line in lines if line.strip() and not line.startswith(("// ", "//\t")))


def _split(files: dict[str, str]) -> deferral.Deferral:
    return deferral.split(list(files.items()), _compact)


def test_a_files_functions_go_to_its_group_and_a_mark_moves_or_keeps_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferral, "FILE_GROUPS", {"a.js": "alpha"})
    files = {
        "a.js": "function one() {\n  return two();\n}\n// group: eager\nfunction kept() {\n  return 1;\n}\n"
        "// group: beta\nfunction two() {\n  return 2;\n}\n",
        "b.js": "function main() {\n  return one() + kept();\n}\n",
    }
    split = _split(files)
    assert split.groups == {"alpha": ["one"], "beta": ["two"]}
    assert "function kept()" in split.texts[0] and "function one()" not in split.texts[0]
    # Stand-ins only for what is called from outside each group: `one` by the script, `two` by group alpha.
    assert 'one = deferredStandIn(0, "one")' in split.declarations
    assert 'two = deferredStandIn(1, "two")' in split.declarations
    assert "one = deferredGroup.one;" in split.deferred
    assert "//# sourceURL=sandbox-runtime.js" in split.deferred
    # Each group's source to compile ahead holds the same functions, each a constant in parentheses (which V8
    # compiles with the group), and hands the same functions out.
    assert "const one = (function one() {" in split.ahead["alpha"]
    assert "const two = (function two() {" in split.ahead["beta"]
    assert "function one() {" in split.deferred and "const one = (" not in split.deferred
    assert "one = deferredGroup.one;" in split.ahead["alpha"]


@pytest.mark.parametrize(
    ("use", "reason"),
    [
        ("const f = one;", "uses one (group alpha)"),
        ("installGlobal('x', one);", "uses one (group alpha)"),
        ("return new one();", "uses one (group alpha)"),
        ("return typeof one;", "uses one (group alpha)"),
    ],
)
def test_a_deferred_function_used_as_a_value_outside_its_group_is_refused_with_where(
    monkeypatch: pytest.MonkeyPatch, use: str, reason: str
) -> None:
    monkeypatch.setattr(deferral, "FILE_GROUPS", {"a.js": "alpha"})
    files = {"a.js": "function one() {\n  return 1;\n}\n", "b.js": f"function main() {{\n  {use}\n}}\n"}
    with pytest.raises(ValueError, match="mark each '// group: eager'") as raised:
        _split(files)
    assert reason in str(raised.value)
    assert use.strip() in str(raised.value)


def test_an_object_key_a_string_and_a_property_of_the_same_name_are_not_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deferral, "FILE_GROUPS", {"a.js": "alpha"})
    files = {
        "a.js": "function one() {\n  return 1;\n}\n",
        "b.js": "const o = { one: 1, 'one': 2 };\nfunction main() {\n  return o.one + 'one'.length;\n}\n",
    }
    assert _split(files).groups == {"alpha": ["one"]}


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({"a.js": "// group: beta\nconst x = 1;\n"}, "'// group: beta' is not followed by a function"),
        ({"a.js": "function one() {\n  return 1;\n"}, "function one has no closing line"),
        (
            {"a.js": "function one() {\n  return 1;\n}\n", "c.js": "function one() {\n  return 2;\n}\n"},
            "a deferred function named one is declared twice",
        ),
        (
            {"a.js": "function one() {\n  return 1;\n}\n", "b.js": "const one = 3;\n"},
            "the names of declarations the script keeps: ['one']",
        ),
    ],
)
def test_mistakes_in_the_files_are_refused_naming_them(
    monkeypatch: pytest.MonkeyPatch, files: dict[str, str], message: str
) -> None:
    monkeypatch.setattr(deferral, "FILE_GROUPS", {"a.js": "alpha", "c.js": "alpha"})
    with pytest.raises(ValueError) as raised:
        _split(files)
    assert message in str(raised.value)


def test_the_runtime_keeps_a_small_script_and_its_groups_hold_the_rest() -> None:
    script, deferred = js_runtime.source(), js_runtime.deferred_source()
    assert len(script) < 70_000 < len(deferred)
    assert deferred.isascii()
    groups = js_runtime.deferred_groups()
    assert {"render", "outcome", "console", "errors", "async", "text"} <= set(groups)
    every = [name for names in groups.values() for name in names]
    assert len(every) == len(set(every))
