"""``tools.$search(query)``: the upstream tools that match a few words, best first.

Words are matched, not substrings: tool names are split at ``_``, ``-``, ``.`` and camelCase humps, every word
is lower-cased and loses a plural ending, so "issues" finds ``searchIssue`` and "search issue" finds
``search_issues``. A word in a tool's name counts most, then in its title, its server's name and its
description; a query word that is the start of a word (three letters or more) counts half. A query naming one
tool (``search_issues``, ``github.search_issues`` or its call expression) puts that tool first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NotRequired, TypedDict

from sandbox_server.upstream.catalog import ToolInfo, call_expression

__all__ = ["DEFAULT_LIMIT", "MAX_SUMMARY", "SearchHit", "call_expression", "search", "summary"]

DEFAULT_LIMIT = 20
MAX_SUMMARY = 160
_WEIGHTS = (("name", 10), ("title", 6), ("server", 4), ("description", 2))
_EXACT = 1_000
_CHUNKS = re.compile(r"[^\W_]+")
_HUMPS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_SENTENCE_END = re.compile(r"(?<=[.!?。])\s")


class SearchHit(TypedDict):
    """One tool found: where it is, what it does in a line, and how sandbox code calls it."""

    server: str
    name: str
    title: NotRequired[str]
    description: str
    call: str
    access: NotRequired[str]
    """Present when the user's policy does more than let the call run: ``asks the user first`` or ``refused``."""


_ACCESS = {"confirm": "asks the user first", "refuse": "refused by the user's policy"}


def search(tools: Sequence[ToolInfo], query: str, *, limit: int = DEFAULT_LIMIT) -> list[SearchHit]:
    """The tools matching ``query``, best first, at most ``limit``; every tool (by server, then name) for an
    empty query or ``*``. Ties are broken by server, then name, so the order never depends on ``tools``'."""
    text = query.strip()
    if limit <= 0:
        return []
    if text in ("", "*"):
        return [_hit(tool) for tool in sorted(tools, key=lambda tool: (tool.server, tool.name))[:limit]]
    wanted = _words(text)
    scored = []
    for tool in tools:
        score: float = _EXACT if _names_the_tool(text, tool) else 0
        fields = {"name": tool.name, "title": tool.title or "", "server": tool.server, "description": tool.description}
        words = {key: set(_words(value or "")) for key, value in fields.items()}
        matched = 0
        for word in dict.fromkeys(wanted):
            found = [_match(word, words[key]) * weight for key, weight in _WEIGHTS]
            best = max(found)
            # The best field decides; the word in other fields too adds a little.
            score += best + (sum(found) - best) / 4
            matched += best > 0
        if score:
            # Tools matching every word of the query come before tools matching some words many times.
            scored.append(
                (-(score + (5 * matched if matched == len(set(wanted)) else 0)), tool.server, tool.name, tool)
            )
    scored.sort(key=lambda entry: entry[:3])
    return [_hit(tool) for *_, tool in scored[:limit]]


def summary(description: str | None) -> str:
    """The first sentence of ``description`` on one line, at most :data:`MAX_SUMMARY` characters."""
    text = " ".join((description or "").split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    return first if len(first) <= MAX_SUMMARY else first[: MAX_SUMMARY - 1].rstrip() + "…"


def _hit(tool: ToolInfo) -> SearchHit:
    hit = SearchHit(server=tool.server, name=tool.name, description=summary(tool.description), call=tool.call)
    if tool.title:
        hit["title"] = " ".join(tool.title.split())[:MAX_SUMMARY]
    if tool.access in _ACCESS:
        hit["access"] = _ACCESS[tool.access]
    return hit


def _names_the_tool(query: str, tool: ToolInfo) -> bool:
    lowered = query.lower()
    return lowered in (tool.name.lower(), f"{tool.server}.{tool.name}".lower(), tool.call.lower()) or query in (
        tool.call,
        tool.call + "()",
    )


def _words(text: str) -> list[str]:
    # camelCase humps are split in ASCII only: elsewhere case says less, and a word stays whole.
    chunks = _CHUNKS.findall(text)
    return [_stem(word.lower()) for chunk in chunks for word in (_HUMPS.findall(chunk) if chunk.isascii() else [chunk])]


def _stem(word: str) -> str:
    """The word without a plural ending: a crude stemmer that is the same on both sides of a comparison."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _match(word: str, words: set[str]) -> float:
    if word in words:
        return 1.0
    if len(word) >= 3 and any(candidate.startswith(word) for candidate in words):
        return 0.5
    return 0.0
