"""The server middleware that puts back, in the params of an HTTP request, the lone surrogates that
:class:`~sandbox_server.transport.http.admission.Admission` marked in its body for the SDK's parser (see
:mod:`sandbox_server.transport.surrogates`), and keeps them out of the answer, which JSON in UTF-8 cannot carry."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel
from starlette.requests import Request

from sandbox_server.transport.surrogates import replaced, restore

__all__ = ["MARKED_SCOPE_KEY", "RestoredSurrogates"]

MARKED_SCOPE_KEY = "sandbox_server.marked_surrogates"
"""Set (true) in the ASGI scope of a request whose body had lone surrogates marked."""


class RestoredSurrogates:
    """Server middleware: for a request marked by :class:`Admission`, its params with their lone surrogates back,
    and its result or error with U+FFFD for each lone surrogate it holds. Other requests pass untouched."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        request = ctx.request
        if not isinstance(request, Request) or not request.scope.get(MARKED_SCOPE_KEY) or ctx.params is None:
            return await call_next(ctx)
        try:
            result = await call_next(replace(ctx, params=restore(ctx.params)))
        except MCPError as exc:
            error = exc.error
            data = None if error.data is None else replaced(error.data)
            raise MCPError(code=error.code, message=replaced(error.message), data=data) from exc
        if isinstance(result, BaseModel):  # dumped the way the SDK's runner dumps a result
            result = result.model_dump(by_alias=True, mode="json", exclude_none=True)
        return None if result is None else replaced(result)
