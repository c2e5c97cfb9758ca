"""The TypeScript declarations of each upstream server's exposed tools, as MCP resources
(``sandbox-tools:///github.d.ts``): the same text ``tools.$describe("github")`` gives the running code, for a client
to show or a model to read before it writes the code."""

from __future__ import annotations

from urllib.parse import quote, unquote, urlsplit

import mcp_types as types
from mcp.shared.exceptions import MCPError

from sandbox_server.upstream.declarations import declarations
from sandbox_server.upstream.directory import Directory

__all__ = ["SCHEME", "ToolResources"]

SCHEME = "sandbox-tools"
"""URI scheme of the declarations."""
MIME_TYPE = "application/typescript"


class ToolResources:
    """One resource per upstream server whose tools are known."""

    def __init__(self, directory: Directory) -> None:
        self._directory = directory

    def owns(self, uri: str) -> bool:
        """Whether ``uri`` is one of these resources' (by its scheme)."""
        return uri.startswith(SCHEME + ":")

    def list(self) -> list[types.Resource]:
        resources = []
        for upstream in self._directory.upstreams:
            tools = self._directory.exposed(upstream)
            if tools is None:
                continue
            resources.append(
                types.Resource(
                    uri=f"{SCHEME}:///{quote(upstream.name, safe='')}.d.ts",
                    name=f"{upstream.name}.d.ts",
                    title=f"Tools of {upstream.name}, as TypeScript",
                    description=f"Signatures of the {len(tools)} tools of the MCP server {upstream.name!r} that "
                    "execute_js_with_tools can call",
                    mime_type=MIME_TYPE,
                )
            )
        return resources

    def read(self, uri: str) -> types.ReadResourceResult:
        parts = urlsplit(uri)
        name = unquote(parts.path.removeprefix("/").removesuffix(".d.ts"))
        if (
            parts.scheme != SCHEME
            or parts.netloc
            or not parts.path.endswith(".d.ts")
            or name not in self._directory.upstreams.names()
        ):
            known = ", ".join(
                f"{SCHEME}:///{quote(server, safe='')}.d.ts" for server in self._directory.upstreams.names()
            )
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"Unknown resource URI {uri[:200]!r}; the tool declarations are: {known}",
            )
        infos = [info for info in self._directory.infos() if info.server == name]
        if not infos:
            raise MCPError(code=types.INVALID_PARAMS, message=f"server {name!r} lists no tools now")
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=MIME_TYPE, text=declarations(infos))]
        )
