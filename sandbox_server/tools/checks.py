"""Every problem of a call's arguments in one answer, not one per round trip.

A tool's own checks of its arguments (a decimal string that is not a number, an unknown time zone) run one after
another and raise at the first failure; a model fixing its call one field per answer needs as many calls as it made
mistakes. :func:`problems` runs every check and keeps each message, :func:`refuse` raises them together, and the
server adds a tool's checks to the schema's own problems (``ToolSpec.check``), so that ``add({"a": "x", "b": [1]})``
names both operands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sandbox_server.errors import ToolError

__all__ = ["problems", "refuse"]

_PREFIX = "Error: "


def problems(checks: Iterable[Callable[[], object]]) -> list[str]:
    """The message of every check that raises a ToolError, each without its ``Error:`` prefix, in order."""
    found: list[str] = []
    for check in checks:
        try:
            check()
        except ToolError as exc:
            found.append(exc.message.removeprefix(_PREFIX))
    return found


def refuse(found: list[str]) -> None:
    """Raise one ToolError holding every message of ``found`` (exactly the message of one alone); nothing if empty."""
    if found:
        raise ToolError(_PREFIX + " ".join(found))
