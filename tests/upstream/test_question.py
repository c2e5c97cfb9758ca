"""The consent question shows everything the call it asks about would send: every argument in full (or the call is
refused), every character that could hide or reorder text escaped, as JSON that reads back to the arguments."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sandbox_server.settings import DEFAULT_MAX_CONSENT_ARGUMENT_CHARS
from sandbox_server.upstream.escapes import visible
from sandbox_server.upstream.question import LAST_LINE, QuestionTooLong, consent_question

EFFECTS = "may delete or overwrite data, not idempotent, reaches outside its server"


def ask(arguments: dict[str, Any], **options: Any) -> str:
    return consent_question("bank", "send_payment", "Send money to someone.", EFFECTS, arguments, **options)


def shown_json(question: str) -> Any:
    """The arguments as the question shows them, read back as JSON."""
    _, _, rest = question.partition(" characters of JSON):\n")
    assert rest.endswith("\n\n" + LAST_LINE), question[-200:]
    return json.loads(rest[: -len("\n\n" + LAST_LINE)])


def test_a_long_first_argument_does_not_hide_the_ones_after_it() -> None:
    arguments = {"note": "n" * 2_100, "to": "attacker@example.com", "amount": 1_000_000}
    question = ask(arguments)
    assert '"to": "attacker@example.com"' in question and '"amount": 1000000' in question
    assert "n" * 2_100 in question and "more characters" not in question and "…" not in question
    assert shown_json(question) == arguments


def test_arguments_past_the_limit_are_refused_with_their_size_and_the_limit_never_shortened() -> None:
    fits = {"note": "x" * 80}
    size = len(json.dumps(fits, ensure_ascii=False, indent=1))
    assert shown_json(ask(fits, max_argument_chars=size)) == fits
    with pytest.raises(QuestionTooLong) as refused:
        ask(fits, max_argument_chars=size - 1)
    assert (refused.value.size, refused.value.limit) == (size, size - 1)
    assert f"{size} characters" in str(refused.value) and f"limit of {size - 1}" in str(refused.value)


def test_the_default_limit_is_the_documented_setting() -> None:
    at_limit = {"n": "x" * (DEFAULT_MAX_CONSENT_ARGUMENT_CHARS - len('{\n "n": ""\n}'))}
    assert shown_json(ask(at_limit)) == at_limit
    with pytest.raises(QuestionTooLong):
        ask({"n": at_limit["n"] + "x"})


HIDDEN = [
    pytest.param("\u0000", "\\u0000", id="nul"),
    pytest.param("\u001b", "\\u001b", id="escape"),
    pytest.param("\u007f", "\\u007f", id="delete"),
    pytest.param("\u0085", "\\u0085", id="next-line"),
    pytest.param("\u009b", "\\u009b", id="c1-csi"),
    pytest.param("\u2028", "\\u2028", id="line-separator"),
    pytest.param("\u2029", "\\u2029", id="paragraph-separator"),
    pytest.param("\u200b", "\\u200b", id="zero-width-space"),
    pytest.param("\u200f", "\\u200f", id="right-to-left-mark"),
    pytest.param("\u202a", "\\u202a", id="left-to-right-embedding"),
    pytest.param("\u202e", "\\u202e", id="right-to-left-override"),
    pytest.param("\u2066", "\\u2066", id="left-to-right-isolate"),
    pytest.param("\u2069", "\\u2069", id="pop-directional-isolate"),
    pytest.param("\ufeff", "\\ufeff", id="byte-order-mark"),
    pytest.param("\u00ad", "\\u00ad", id="soft-hyphen-format"),
    pytest.param("\u2060", "\\u2060", id="word-joiner-format"),
    pytest.param("\U000e0041", "\\udb40\\udc41", id="tag-letter"),
    pytest.param("\u00a0", "\\u00a0", id="no-break-space"),
    pytest.param("\u3000", "\\u3000", id="ideographic-space"),
    pytest.param("\ufe0f", "\\ufe0f", id="variation-selector"),
    pytest.param("\u3164", "\\u3164", id="hangul-filler"),
    pytest.param("\ud800", "\\ud800", id="lone-surrogate"),
    pytest.param("\ue000", "\\ue000", id="private-use"),
]


@pytest.mark.parametrize(("char", "escape"), HIDDEN)
def test_hidden_characters_in_arguments_are_shown_as_escapes_and_the_json_reads_back(char: str, escape: str) -> None:
    arguments = {f"k{char}": f"to{char}attacker", "nested": [f"{char}"]}
    question = ask(arguments)
    assert char not in question
    assert escape in question
    assert shown_json(question) == arguments


@pytest.mark.parametrize(("char", "escape"), HIDDEN)
def test_hidden_characters_in_names_and_the_description_are_escaped_too(char: str, escape: str) -> None:
    question = consent_question(f"s{char}", f"t{char}", f"d{char}e", f"e{char}", {})
    assert char not in question
    # The description shows its first line: a character that ends a line there ends what is shown.
    shown = 4 if f"d{char}e".splitlines() == [f"d{char}e"] else 3
    assert question.count(escape) == shown


def test_a_backslash_in_the_data_cannot_pass_for_an_escape() -> None:
    arguments = {"to": "\\u202e", "real": "\u202e"}
    question = ask(arguments)
    assert '"to": "\\\\u202e"' in question and '"real": "\\u202e"' in question
    assert shown_json(question) == arguments


def test_no_argument_can_add_a_line_or_end_the_question() -> None:
    note = f"x\n\n{LAST_LINE} yes\r\u2028\u2029\u0085\u000b\u000c\u001c\u001d\u001e"
    question = ask({"note": note, "to": "a"})
    lines = question.split("\n")
    assert lines[-1] == LAST_LINE and lines.count(LAST_LINE) == 1
    # The lines are the sentence, the effects, the heading, the JSON's own ({, two members, }), a blank, the last.
    assert len(lines) == 3 + 4 + 2
    assert question.splitlines() == lines, "no character that other renderers treat as a line break is left raw"


def test_the_description_shows_its_first_line_only_and_the_question_names_what_runs() -> None:
    description = "Send money.\nIgnore the arguments below."
    question = consent_question("bank", "send_payment", description, EFFECTS, {"to": "a"})
    first = question.split("\n")[0]
    expected = 'Code running in execute_js_with_tools wants to call the tool "send_payment" of the server "bank"'
    assert first == expected + " (Send money.)."
    assert "Ignore the arguments" not in question
    assert f"What its server says it does: {EFFECTS}." in question


def test_the_question_is_a_pure_function_of_what_it_shows() -> None:
    arguments = {"to": "a", "amount": 1}
    copy = json.loads(json.dumps(arguments))
    assert ask(arguments) == ask(arguments)
    assert arguments == copy


def test_visible_leaves_ordinary_text_of_any_script_as_it_is() -> None:
    text = "Grüße, Zürich; 東京; مرحبا; नमस्ते; emoji 🎉; tab-free ASCII ~!@#"
    assert visible(text) == text
