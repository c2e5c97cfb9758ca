"""The tools the server publishes; ``execute_js`` lives beside them but needs the worker pool to be built."""

from __future__ import annotations

from sandbox_server.registry import ToolSpec
from sandbox_server.tools.add import ADD
from sandbox_server.tools.date_diff import DATE_DIFF
from sandbox_server.tools.divide import DIVIDE

__all__ = ["ADD", "DATE_DIFF", "DIVIDE", "deterministic_tools"]


def deterministic_tools() -> list[ToolSpec]:
    """The tools that compute exact answers in-process, in the order they are listed: add, divide, date_diff."""
    return [ADD, DIVIDE, DATE_DIFF]
