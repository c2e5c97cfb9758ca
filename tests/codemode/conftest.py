"""Code mode under test: a sandbox-server configured with real upstream servers (``tests/upstream/servers``), reached
through the official MCP client, with or without a user who answers elicitation."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import mcp_types as types
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from ..conftest import make_settings

ROOT = Path(__file__).resolve().parents[2]


def stdio_server(module: str, *args: str, **policy: Any) -> dict[str, Any]:
    """A config entry that runs ``tests.upstream.servers.<module>`` over stdio."""
    return {
        "command": sys.executable,
        "args": ["-m", f"tests.upstream.servers.{module}", *args],
        "cwd": str(ROOT),
        **policy,
    }


def write_config(folder: Path, servers: dict[str, dict[str, Any]], name: str = "upstream.json") -> Path:
    path = folder / name
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return path


@dataclass
class User:
    """Answers elicitation as told, and remembers every question."""

    answer: str = "accept"
    allow: bool = True
    questions: list[types.ElicitRequestParams] = field(default_factory=list)

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.questions.append(params)
        if self.answer == "accept":
            return types.ElicitResult(action="accept", content={"allow": self.allow})
        return types.ElicitResult(action=self.answer)  # type: ignore[arg-type]


@dataclass
class CodeMode:
    client: Client
    app: App
    user: User | None

    async def run(self, code: str, **arguments: Any) -> tuple[types.CallToolResult, dict[str, Any]]:
        result = await self.client.call_tool("execute_js_with_tools", {"code": code, **arguments})
        assert result.structured_content is not None, result
        return result, result.structured_content

    async def value(self, code: str, **arguments: Any) -> Any:
        result, structured = await self.run(code, **arguments)
        assert structured["ok"], _text(result)
        return structured.get("result")

    async def tool(self) -> types.Tool:
        listed = await self.client.list_tools()
        return next(tool for tool in listed.tools if tool.name == "execute_js_with_tools")


def _text(result: types.CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


@asynccontextmanager
async def code_mode(
    config: Path,
    user: User | None = None,
    message_handler: Any = None,
    client_mode: Literal["auto", "legacy"] = "legacy",
    **settings: Any,
) -> AsyncIterator[CodeMode]:
    """Code mode over ``config``'s servers, for a client speaking the current revision (``auto``: consent pauses the
    run and resumes it) or the handshake one (``legacy``: consent is asked in the middle of the call)."""
    app = App.create(make_settings(upstream=config, workers=1, **settings))
    callback: Callable[..., Awaitable[Any]] | None = user
    async with Client(
        build_server(app=app),
        mode=client_mode,
        elicitation_callback=callback,  # type: ignore[arg-type]
        message_handler=message_handler,
    ) as client:
        yield CodeMode(client, app, user)


@pytest.fixture(scope="module")
def upstream_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("upstream")


text_of = _text
