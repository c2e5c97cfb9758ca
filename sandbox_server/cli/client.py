"""The client commands, ``tools list|call`` and ``resources list|read``: each starts a server for the purpose (or
reaches one at ``--url``), talks to it with the official MCP client and prints what it answered."""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import sys
from typing import Any

from sandbox_server.cli.errors import HttpFailures
from sandbox_server.cli.flags import settings_env
from sandbox_server.settings import Settings

__all__ = ["call_arguments", "resources_command", "tools_command"]


def call_arguments(args: argparse.Namespace) -> dict[str, Any] | None:
    """The tool arguments from --args and --code-file; None (after saying why on stderr) when unusable."""
    arguments: dict[str, Any] = {}
    if args.tools_command == "call":
        try:
            parsed = json.loads(args.args)
        except json.JSONDecodeError as exc:
            sys.stderr.write(f"sandbox-server: --args is not valid JSON: {exc}\n")
            return None
        if not isinstance(parsed, dict):
            sys.stderr.write('sandbox-server: --args must be a JSON object, e.g. \'{"a": 1, "b": 2}\'\n')
            return None
        arguments = parsed
        for text in getattr(args, "then", []):
            try:
                further = json.loads(text)
            except json.JSONDecodeError as exc:
                sys.stderr.write(f"sandbox-server: --then is not valid JSON: {exc}\n")
                return None
            if not isinstance(further, dict):
                sys.stderr.write("sandbox-server: --then must be a JSON object, as --args is\n")
                return None
        if args.code_file is not None:
            try:
                if args.code_file == "-":
                    arguments["code"] = sys.stdin.read()
                else:
                    with open(args.code_file, encoding="utf-8") as handle:
                        arguments["code"] = handle.read()
            except OSError as exc:
                sys.stderr.write(f"sandbox-server: cannot read --code-file: {exc}\n")
                return None

    return arguments


async def _connect(
    stack: contextlib.AsyncExitStack, args: argparse.Namespace, settings: Settings, http_failures: HttpFailures
) -> Any:
    """A client connected to the server at ``--url``, or to one started for the purpose over stdio."""
    from mcp import Client, StdioServerParameters

    target: Any
    if args.url:
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        token = settings.auth_token.get_secret_value() if settings.auth_token else None
        headers = {"Authorization": f"Bearer {token}"} if token else None
        http_client = await stack.enter_async_context(create_mcp_http_client(headers=headers))
        http_failures.attach(http_client)
        target = streamable_http_client(args.url, http_client=http_client)
    else:
        target = StdioServerParameters(
            command=sys.executable, args=["-m", "sandbox_server", "serve"], env=settings_env(settings)
        )
    return await stack.enter_async_context(Client(target, mode="legacy"))


async def resources_command(args: argparse.Namespace, settings: Settings, http_failures: HttpFailures) -> int:
    from mcp.shared.exceptions import MCPError

    from sandbox_server.data.resources import SCHEME, uri_of

    async with contextlib.AsyncExitStack() as stack:
        client = await _connect(stack, args, settings, http_failures)
        if client.server_capabilities is None or client.server_capabilities.resources is None:
            sys.stderr.write("sandbox-server: the server publishes no resources; start it with --data-dir PATH\n")
            return 2
        try:
            if args.resources_command == "list":
                listed: list[Any] = []
                cursor: str | None = None
                while True:
                    page = await client.list_resources(cursor=cursor)
                    listed.extend(page.resources)
                    cursor = page.next_cursor
                    if not cursor:
                        break
                if args.json:
                    dumped = [item.model_dump(mode="json", by_alias=True, exclude_none=True) for item in listed]
                    sys.stdout.write(json.dumps(dumped, indent=2, ensure_ascii=False) + "\n")
                else:
                    for item in listed:
                        sys.stdout.write(f"{item.uri}\t{item.mime_type}\t{item.size} bytes\n")
                return 0
            uri = args.uri if args.uri.startswith(SCHEME + ":") else uri_of(args.uri)
            result = await client.read_resource(uri)
        except MCPError as exc:
            sys.stderr.write(f"sandbox-server: {exc}\n")
            return 1
    if args.json:
        sys.stdout.write(result.model_dump_json(by_alias=True, exclude_none=True, indent=2) + "\n")
        return 0
    for content in result.contents:
        text = getattr(content, "text", None)
        if text is not None:
            sys.stdout.write(text)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(base64.b64decode(content.blob))
            sys.stdout.buffer.flush()
    return 0


async def tools_command(
    args: argparse.Namespace, settings: Settings, arguments: dict[str, Any], http_failures: HttpFailures
) -> int:
    async with contextlib.AsyncExitStack() as stack:
        client = await _connect(stack, args, settings, http_failures)
        if args.tools_command == "list":
            listed = await client.list_tools()
            if args.json:
                sys.stdout.write(listed.model_dump_json(by_alias=True, exclude_none=True, indent=2) + "\n")
            else:
                for tool in listed.tools:
                    summary = (tool.description or "").split("\n")[0]
                    sys.stdout.write(f"{tool.name}: {tool.title or ''}\n    {summary}\n")
            return 0
        failed = False
        for index, call in enumerate([arguments, *further_calls(args)]):
            result = await client.call_tool(args.name, call)
            failed = failed or bool(result.is_error)
            if args.json:
                sys.stdout.write(result.model_dump_json(by_alias=True, exclude_none=True, indent=2) + "\n")
                continue
            if index:
                sys.stdout.write("---\n")
            for block in result.content:
                text = getattr(block, "text", None)
                sys.stdout.write((text if text is not None else block.model_dump_json()) + "\n")
            if result.is_error:
                sys.stdout.write("isError: true\n")
    return 1 if failed else 0


def further_calls(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The arguments of the calls after the first (``--then``), already checked by :func:`call_arguments`."""
    return [json.loads(text) for text in getattr(args, "then", [])]
