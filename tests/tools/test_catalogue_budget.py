"""The catalogue a model reads before its first call (every tool's name, title, description and input schema) fits
a fixed token budget, so that the server leaves room in the model's context for the work itself.

Tokens are counted with the cl100k_base encoding when the ``bpe-openai`` package (which carries its tables) is
installed, and estimated as a quarter of the characters otherwise.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings

CATALOGUE_BUDGET = 2_000
"""Most tokens the whole catalogue may take."""
DETERMINISTIC_BUDGET = 1_150
"""Most tokens ``add``, ``divide`` and ``date_diff`` may take together, leaving the rest to ``execute_js``."""
DETERMINISTIC = ("add", "divide", "date_diff")
CODE_MODE_BUDGET = 340
"""Most tokens ``execute_js_with_tools`` may take beside its listing of the upstream tools (description and input
schema); the listing itself is bounded by ``SIGNATURES_BUDGET_CHARS`` (docs/code-mode.md)."""

pytestmark = pytest.mark.anyio


@cache
def _encoder() -> Callable[[str], list[int]] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # it loads its tables with an old importlib call
        try:
            import bpe_openai  # optional: the estimate in count_tokens stands in without it
        except ImportError:
            return None
        encoding = bpe_openai.get_encoding("cl100k_base")
    return encoding.encode  # type: ignore[no-any-return]


def count_tokens(text: str) -> int:
    encode = _encoder()
    return math.ceil(len(text) / 4) if encode is None else len(encode(text))


def visible(tool: types.Tool) -> str:
    """What a client shows the model of one tool, as compact JSON."""
    listed: dict[str, Any] = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
    shown = {key: listed[key] for key in ("name", "title", "description", "inputSchema") if key in listed}
    return json.dumps(shown, separators=(",", ":"), ensure_ascii=False)


def tokens(tools: Iterable[types.Tool]) -> int:
    return sum(count_tokens(visible(tool)) for tool in tools)


@pytest.fixture
async def listed() -> list[types.Tool]:
    app = App.create(make_settings(workers=1))
    async with Client(build_server(app=app), mode="legacy") as client:
        return (await client.list_tools()).tools


async def test_the_whole_catalogue_fits_its_token_budget(listed: list[types.Tool]) -> None:
    assert {tool.name for tool in listed} >= set(DETERMINISTIC)
    used = tokens(listed)
    per_tool = {tool.name: count_tokens(visible(tool)) for tool in listed}
    assert used <= CATALOGUE_BUDGET, f"{used} tokens: {per_tool}"


async def test_the_three_exact_tools_fit_their_share_of_the_budget(listed: list[types.Tool]) -> None:
    exact = [tool for tool in listed if tool.name in DETERMINISTIC]
    assert len(exact) == len(DETERMINISTIC)
    used = tokens(exact)
    assert used <= DETERMINISTIC_BUDGET, (
        f"{used} tokens: { {tool.name: count_tokens(visible(tool)) for tool in exact} }"
    )


def test_the_token_count_is_a_real_measure_not_zero() -> None:
    # A sentence of ordinary English is about one token per word in cl100k and by the character estimate.
    assert 8 <= count_tokens("Add two integers or decimals exactly, whatever their size.") <= 16
