"""The client commands, ``tools list|call`` and ``resources list|read``: each starts a server for the purpose (or
reaches one at ``--url``), talks to it with the official MCP client and prints what it answered."""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from sandbox_server.cli.errors import HttpFailures
from sandbox_server.cli.flags import settings_env
from sandbox_server.settings import Settings

__all__ = ["call_arguments", "resources_command", "tools_command"]


def _read_json_object(text: str, flag: str) -> dict[str, Any] | None:
    """The JSON object ``text`` gives (``@FILE`` reads a file, ``-`` stdin); None after saying why on stderr."""
    where = ""
    try:
        if text == "-":
            text, where = sys.stdin.read(), " (from stdin)"
        elif text.startswith("@"):
            with open(text[1:], encoding="utf-8") as handle:
                text, where = handle.read(), f" (from {text[1:]})"
    except (OSError, UnicodeDecodeError) as exc:
        sys.stderr.write(f"sandbox-server: cannot read the file of {flag}: {exc}\n")
        return None
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        sys.stderr.write(f"sandbox-server: {flag}{where} is not valid JSON: {exc}\n")
        return None
    if not isinstance(parsed, dict):
        sys.stderr.write(f'sandbox-server: {flag}{where} must be a JSON object, e.g. \'{{"a": 1, "b": 2}}\'\n')
        return None
    return parsed


def call_arguments(args: argparse.Namespace) -> list[dict[str, Any]] | None:
    """The arguments of each call, from --args (with --code-file) and each --then; None (after saying why on
    stderr) when unusable."""
    if args.tools_command != "call":
        return [{}]
    if args.args == "-" and args.code_file == "-":
        sys.stderr.write("sandbox-server: --args - and --code-file - cannot both read stdin: put one in a file\n")
        return None
    if any(text == "-" for text in args.then):
        sys.stderr.write("sandbox-server: --then cannot read stdin; use --then @FILE\n")
        return None
    arguments = _read_json_object(args.args, "--args")
    if arguments is None:
        return None
    calls = [arguments]
    for text in args.then:
        further = _read_json_object(text, "--then")
        if further is None:
            return None
        calls.append(further)
    if args.code_file is not None:
        try:
            if args.code_file == "-":
                arguments["code"] = sys.stdin.read()
            else:
                with open(args.code_file, encoding="utf-8") as handle:
                    arguments["code"] = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            sys.stderr.write(f"sandbox-server: cannot read --code-file: {exc}\n")
            return None
    return calls


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
            return failed(args, "the server publishes no resources; start it with --data-dir PATH", 2)
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
            return failed(args, str(exc), 1)
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
    args: argparse.Namespace,
    settings: Settings,
    calls: list[dict[str, Any]],
    http_failures: HttpFailures,
    answered: list[dict[str, Any]],
) -> int:
    """``tools list`` or ``tools call``; with ``--json``, the results are appended to ``answered`` and printed as one
    document at the end (the caller prints what was answered with the error if the command fails)."""
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
        images = ImageFiles(Path(args.save_images) if args.save_images else None)
        any_error = False
        for index, call in enumerate(calls):
            result = await client.call_tool(args.name, call)
            any_error = any_error or bool(result.is_error)
            if args.json:
                answered.append(images.in_json(result.model_dump(mode="json", by_alias=True, exclude_none=True)))
                continue
            if index:
                sys.stdout.write("---\n")
            for block in result.content:
                text = getattr(block, "text", None)
                if text is not None:
                    sys.stdout.write(text + "\n")
                elif block.type == "image":
                    sys.stdout.write(images.line(block.data, block.mime_type) + "\n")
                else:
                    sys.stdout.write(block.model_dump_json() + "\n")
            if result.is_error:
                sys.stdout.write("isError: true\n")
    if args.json:
        write_json(answered[0] if len(calls) == 1 else answered)
    return 1 if any_error else 0


def write_json(document: object) -> None:
    """Print one JSON document on stdout."""
    sys.stdout.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def failed(args: argparse.Namespace, reason: str, status: int, answered: list[dict[str, Any]] | None = None) -> int:
    """Say why a client command failed: one line on stderr and, with ``--json``, one JSON document on stdout (with
    the results answered before the failure, if any). Returns ``status``."""
    sys.stderr.write(f"sandbox-server: {reason}\n")
    if getattr(args, "json", False):
        write_json({"error": reason, **({"results": answered} if answered else {})})
    return status


class ImageFiles:
    """The images of ``tools call``'s results: written to ``--save-images DIR`` (``image-1.png``, ...) and named by
    path, or, without it, described in one line instead of pages of base64."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.count = 0

    def save(self, data: str, mime_type: str) -> Path | None:
        """Write one image (base64 ``data``) to the folder; None without a folder."""
        self.count += 1
        if self.folder is None:
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / f"image-{self.count}{_EXTENSIONS.get(mime_type, '.bin')}"
        path.write_bytes(base64.b64decode(data))
        return path.resolve()

    def line(self, data: str, mime_type: str) -> str:
        path = self.save(data, mime_type)
        size = len(base64.b64decode(data))
        if path is None:
            return f"[image {self.count}: {mime_type}, {size} bytes; --save-images DIR writes it to a file]"
        return f"[image {self.count}: {path} ({mime_type}, {size} bytes)]"

    def in_json(self, result: dict[str, Any]) -> dict[str, Any]:
        """``result`` (a CallToolResult as JSON) with each image's ``data`` replaced by the ``path`` it was saved to,
        when there is a folder."""
        if self.folder is None:
            return result
        for block in result.get("content", []):
            if block.get("type") == "image":
                block["path"] = str(self.save(block.pop("data"), block.get("mimeType", "")))
        return result


_EXTENSIONS = {
    "image/png": ".png",
    "image/jpeg": ".jpg",
    "image/gif": ".gif",
    "image/webp": ".webp",
    "image/svg+xml": ".svg",
}
