"""The question a user answers before one upstream call runs under ``"sideEffects": "confirm"``.

What the user allows is exactly what the question shows: the server, the tool, what its server says it does, and
every argument in full, as indented JSON. Nothing is ever shortened: arguments that take more than
``max_argument_chars`` characters to show make :func:`consent_question` raise :class:`QuestionTooLong`, and the
call is refused. Every character that could hide, reorder or break the text (control, format and bidirectional
characters, separators, odd spaces; see :mod:`.escapes`) is shown as an escape such as ``\\u202e``, so the JSON on
screen is the JSON sent. The question ends with its own last line, which no argument can imitate: strings cannot
hold a raw line break.

A pure function of what it is given, so that every way of asking the user builds the same question.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sandbox_server.settings import DEFAULT_MAX_CONSENT_ARGUMENT_CHARS
from sandbox_server.upstream.escapes import visible

__all__ = ["DEFAULT_MAX_CONSENT_ARGUMENT_CHARS", "MAX_DESCRIPTION_CHARS", "QuestionTooLong", "consent_question"]

MAX_DESCRIPTION_CHARS = 300
"""Of the tool's description the question shows the first line, up to this many characters (it is the server's
text, not part of what is allowed)."""
LAST_LINE = "Allow this one call?"


class QuestionTooLong(ValueError):
    """The arguments take more characters to show than a question may hold; the call is refused, never shortened."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"the arguments take {size} characters to show in full, more than the limit of {limit}")
        self.size = size
        self.limit = limit


def shown_arguments(arguments: Mapping[str, Any]) -> str:
    """The arguments as the question shows them: indented JSON with every hidden character escaped."""
    text = json.dumps(arguments, ensure_ascii=False, indent=1)
    # Raw newlines in the text are the indentation's own: json.dumps escapes those inside strings.
    return visible(text, keep="\n")


def consent_question(
    server: str,
    tool: str,
    description: str | None,
    effects: str,
    arguments: Mapping[str, Any],
    *,
    max_argument_chars: int = DEFAULT_MAX_CONSENT_ARGUMENT_CHARS,
) -> str:
    """The question for one call of ``tool`` of ``server`` with ``arguments``; ``effects`` says in words what its
    server says the tool does (see ``policy.effects``).

    Raises:
        QuestionTooLong: the arguments take more than ``max_argument_chars`` characters to show.
    """
    shown = shown_arguments(arguments)
    if len(shown) > max_argument_chars:
        raise QuestionTooLong(len(shown), max_argument_chars)
    lines = (description or "").strip().splitlines()
    summary = visible(lines[0][:MAX_DESCRIPTION_CHARS]) if lines else ""
    return (
        f"Code running in execute_js_with_tools wants to call the tool {_quoted(tool)} of the server {_quoted(server)}"
        + (f" ({summary})" if summary else "")
        + f".\nWhat its server says it does: {visible(effects)}."
        + f"\nArguments, in full ({len(shown)} characters of JSON):\n{shown}\n\n{LAST_LINE}"
    )


def _quoted(name: str) -> str:
    return visible(json.dumps(name, ensure_ascii=False))
