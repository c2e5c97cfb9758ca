"""Calling a deterministic tool the way the server does, without a server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from jsonschema import Draft202012Validator

from sandbox_server.registry import CallContext, ToolSpec
from sandbox_server.results import ToolResult

Call = Callable[[ToolSpec, dict[str, Any]], Awaitable[ToolResult]]


async def checked_call(spec: ToolSpec, arguments: dict[str, Any]) -> ToolResult:
    """Validate the arguments like the server, run the handler, and check a success against the output schema."""
    Draft202012Validator(spec.input_schema).validate(arguments)
    result = await spec.handler(arguments, CallContext())
    assert not result.is_error
    assert result.structured is not None
    Draft202012Validator(spec.output_schema).validate(result.structured)
    return result
