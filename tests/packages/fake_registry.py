"""A registry served from this machine (127.0.0.1) for tests: package documents and tarballs made on the spot,
tarballs that break the rules included, so that adding packages is tested without the network."""

from __future__ import annotations

import base64
import hashlib
import http.server
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Member:
    """One tarball entry: a file (``content``), or a link (``link`` with ``kind`` ``sym`` or ``hard``)."""

    name: str
    content: bytes = b""
    link: str | None = None
    kind: str = "file"


def tarball(members: list[Member]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for member in members:
            info = tarfile.TarInfo(member.name)
            if member.link is not None:
                info.type = tarfile.SYMTYPE if member.kind == "sym" else tarfile.LNKTYPE
                info.linkname = member.link
                archive.addfile(info)
            else:
                info.size = len(member.content)
                archive.addfile(info, io.BytesIO(member.content))
    return out.getvalue()


def package_files(name: str, version: str, files: dict[str, str], **manifest: Any) -> list[Member]:
    """Members of a well-formed package: ``package/package.json`` and ``files`` under ``package/``."""
    meta = {"name": name, "version": version, **manifest}
    members = [Member("package/package.json", json.dumps(meta).encode())]
    members += [Member("package/" + path, text.encode()) for path, text in files.items()]
    return members


@dataclass
class FakeRegistry:
    """Packages by name and version; ``integrity`` overrides what a version's document claims."""

    versions: dict[str, dict[str, tuple[bytes, dict[str, Any]]]] = field(default_factory=dict)
    integrity: dict[tuple[str, str], str] = field(default_factory=dict)
    url: str = ""
    requests: list[str] = field(default_factory=list)

    def publish(self, name: str, version: str, data: bytes, **fields: Any) -> None:
        self.versions.setdefault(name, {})[version] = (data, fields)

    def document(self, name: str) -> dict[str, Any]:
        versions = {}
        for version, (data, fields) in self.versions[name].items():
            sri = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
            versions[version] = {
                "name": name,
                "version": version,
                "dist": {
                    "tarball": f"{self.url}{name}/-/{name.split('/')[-1]}-{version}.tgz",
                    "integrity": self.integrity.get((name, version), sri),
                },
                **fields,
            }
        latest = sorted(versions)[-1]
        return {"name": name, "dist-tags": {"latest": latest}, "versions": versions}


@contextmanager
def serving(registry: FakeRegistry) -> Iterator[FakeRegistry]:
    """Serve ``registry`` on 127.0.0.1 until the block ends."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.lstrip("/").replace("%2f", "/").replace("%2F", "/")
            registry.requests.append(path)
            body: bytes | None = None
            if "/-/" in path:
                name, _, rest = path.partition("/-/")
                for version, (data, _fields) in registry.versions.get(name, {}).items():
                    if rest.endswith(f"-{version}.tgz"):
                        body = data
            elif path in registry.versions:
                body = json.dumps(registry.document(path)).encode()
            if body is None:
                self.send_response(404)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    registry.url = f"http://127.0.0.1:{server.server_address[1]}/"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield registry
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
