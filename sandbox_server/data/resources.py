"""The data folder's files as MCP resources: ``resources/list`` (paginated) and ``resources/read`` (capped).

URIs name files relative to the folder under the server's own scheme, ``sandbox-data:///reports/2025.csv``
(each path component percent-encoded), so a client never sees where the folder is on the host. Reading goes
through :class:`~sandbox_server.data.folder.DataFolder`, which applies every containment rule, and lists only names
that are valid UTF-8 (others are left out and logged), so every URI and name here can travel in JSON.

Both handlers do their file-system work in a worker thread that stops when the request is cancelled. A page of
the listing is the files whose names sort after the cursor (the last name of the previous page), so pages
neither skip nor repeat a file while the folder is unchanged.
"""

from __future__ import annotations

import base64
import binascii
from urllib.parse import quote, unquote, urlsplit

import mcp_types as types
from mcp.shared.exceptions import MCPError

from sandbox_server.data.folder import DataFile, DataFolder, Stop, off_the_loop
from sandbox_server.errors import PathRefused

__all__ = ["PAGE_SIZE", "SCHEME", "DataResources", "name_of", "uri_of"]

SCHEME = "sandbox-data"
"""URI scheme of the data folder's files."""
PAGE_SIZE = 100
"""Resources per ``resources/list`` page."""

_TEXT_TYPES = ("application/json", "application/xml", "application/yaml", "application/jsonl", "application/x-ndjson")


def uri_of(name: str) -> str:
    """The resource URI of the file named ``name`` (relative to the folder)."""
    return f"{SCHEME}:///" + "/".join(quote(part, safe="") for part in name.split("/"))


def name_of(uri: str) -> str:
    """The file name a resource URI stands for; raises MCPError (invalid params) for a URI of another kind."""
    parts = urlsplit(uri)
    if parts.scheme != SCHEME or parts.netloc or parts.query or parts.fragment or not parts.path.startswith("/"):
        raise MCPError(
            code=types.INVALID_PARAMS,
            message=f"Unknown resource URI {uri[:200]!r}: this server's resources look like {SCHEME}:///reports/2025.csv",
            data={"uri": uri[:200]},
        )
    try:
        return "/".join(unquote(part, errors="strict") for part in parts.path[1:].split("/"))
    except UnicodeDecodeError:
        message = f"Resource URI {uri[:200]!r} is not UTF-8 once decoded"
        raise MCPError(code=types.INVALID_PARAMS, message=message) from None


def _is_text(file: DataFile) -> bool:
    return file.mime_type.startswith("text/") or file.mime_type in _TEXT_TYPES


def _cursor(name: str) -> str:
    return base64.urlsafe_b64encode(name.encode("utf-8")).decode("ascii")


def _after(cursor: str) -> str:
    try:
        return base64.urlsafe_b64decode(cursor.encode("ascii")).decode("utf-8")
    except (binascii.Error, UnicodeError, ValueError):
        raise MCPError(
            code=types.INVALID_PARAMS, message="Invalid cursor: pass the nextCursor of the previous resources/list page"
        ) from None


class DataResources:
    """The handlers of ``resources/list`` and ``resources/read`` over one data folder."""

    def __init__(self, folder: DataFolder, max_bytes: int, page_size: int = PAGE_SIZE) -> None:
        self.folder = folder
        self.max_bytes = max_bytes
        self.page_size = page_size

    def _page(self, cursor: str | None, stop: Stop) -> types.ListResourcesResult:
        after = None if cursor is None else _after(cursor)
        page: list[types.Resource] = []
        more = False
        # The walk yields names in order, so a page starts right after its cursor without reading the folders
        # whose names all sort before it.
        for file in self.folder.files(after=after, stop=stop):
            if len(page) == self.page_size:
                more = True
                break
            page.append(
                types.Resource(
                    uri=uri_of(file.name),
                    name=file.name,
                    title=file.name.rsplit("/", 1)[-1],
                    mime_type=file.mime_type,
                    size=file.size,
                )
            )
        next_cursor = _cursor(page[-1].name) if more and page else None
        return types.ListResourcesResult(resources=page, next_cursor=next_cursor)

    async def list(self, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        """One page of the folder's files, in name order."""
        cursor = params.cursor if params else None
        return await off_the_loop(lambda stop: self._page(cursor, stop))

    def _read(self, uri: str, stop: Stop) -> types.ReadResourceResult:
        name = name_of(uri)
        try:
            file = self.folder.resolve(name)
            if file.size > self.max_bytes:
                raise PathRefused(
                    f"file {name!r} is {file.size} bytes; resources/read returns files of at most {self.max_bytes} "
                    "bytes (max_resource_bytes): compute over it with execute_js and its files argument instead"
                )
            data = self.folder.read(file, self.max_bytes, stop=stop)
        except PathRefused as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message, data={"uri": uri}) from None
        if _is_text(file):
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                return types.ReadResourceResult(
                    contents=[types.TextResourceContents(uri=uri, mime_type=file.mime_type, text=text)]
                )
        blob = base64.b64encode(data).decode("ascii")
        return types.ReadResourceResult(
            contents=[types.BlobResourceContents(uri=uri, mime_type=file.mime_type, blob=blob)]
        )

    async def read(self, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        """The file a URI names, as text (UTF-8 text types) or a base64 blob."""
        return await off_the_loop(lambda stop: self._read(params.uri, stop))
