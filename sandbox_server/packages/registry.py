"""An npm registry, read over HTTP: a package's document (its versions and their ``dist``) and tarballs."""

from __future__ import annotations

import json
import logging
import re
from typing import Any
from urllib.parse import quote, urlsplit

import httpx2

from sandbox_server.errors import PackageError
from sandbox_server.packages.config import RegistryConfig

__all__ = ["MAX_DOCUMENT_BYTES", "MAX_TARBALL_BYTES", "PACKAGE_NAME", "Registry", "check_name"]

logger = logging.getLogger(__name__)

MAX_TARBALL_BYTES = 64 * 2**20
"""Largest compressed tarball downloaded."""
MAX_DOCUMENT_BYTES = 64 * 2**20
"""Largest package document read (packages with thousands of versions reach tens of megabytes)."""
REQUEST_TIMEOUT_S = 60.0
# npm's rules for a new name (lower case, URL-safe, at most 214 characters), with a scope or without.
PACKAGE_NAME = re.compile(r"^(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$")
# The corpus document npm serves for installs: versions with their dependencies and dist only.
_ACCEPT = "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8"


def check_name(name: str) -> str:
    """``name`` when it is a valid npm package name, else :class:`PackageError` saying what one looks like."""
    if len(name) > 214 or not PACKAGE_NAME.match(name):
        raise PackageError(
            f"{name!r} is not an npm package name: lower-case letters, digits and - . _ ~, optionally under a "
            "scope (@scope/name)"
        )
    return name


class Registry:
    """One registry's documents and tarballs; use as a context manager (it holds an HTTP connection pool)."""

    def __init__(self, config: RegistryConfig, *, transport: httpx2.BaseTransport | None = None) -> None:
        self.config = config
        headers = {"User-Agent": "sandbox-server (npm packages)"}
        self._host = urlsplit(config.url).netloc
        self._client = httpx2.Client(
            timeout=REQUEST_TIMEOUT_S, follow_redirects=True, headers=headers, transport=transport
        )
        self._documents: dict[str, dict[str, Any]] = {}

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._client.close()

    def _headers(self, url: str, accept: str) -> dict[str, str]:
        headers = {"Accept": accept}
        # The token goes only to the registry's own host, not to a tarball host elsewhere.
        if self.config.token and urlsplit(url).netloc == self._host:
            headers["Authorization"] = f"Bearer {self.config.token}"
        return headers

    def _get(self, url: str, accept: str, limit: int, what: str) -> bytes:
        try:
            with self._client.stream("GET", url, headers=self._headers(url, accept)) as response:
                if response.status_code == 404:
                    raise PackageError(f"{what}: the registry {self.config.url} has no such package (HTTP 404)")
                if response.status_code >= 400:
                    raise PackageError(f"{what}: the registry answered HTTP {response.status_code} for {url}")
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > limit:
                        raise PackageError(f"{what}: larger than {limit} bytes, the most this command downloads")
                    chunks.append(chunk)
                return b"".join(chunks)
        except httpx2.HTTPError as exc:
            raise PackageError(
                f"{what}: could not reach the registry {self.config.url} ({self.config.source}): "
                f"{type(exc).__name__}: {exc}"
            ) from exc

    def document(self, name: str) -> dict[str, Any]:
        """The registry's document of package ``name`` (versions, dist-tags); fetched once per instance."""
        check_name(name)
        if name in self._documents:
            return self._documents[name]
        url = self.config.url + quote(name, safe="@")
        body = self._get(url, _ACCEPT, MAX_DOCUMENT_BYTES, f"package {name}")
        try:
            document = json.loads(body)
        except ValueError as exc:
            raise PackageError(f"package {name}: the registry's answer is not JSON") from exc
        if not isinstance(document, dict) or not isinstance(document.get("versions"), dict):
            raise PackageError(f"package {name}: the registry's answer lists no versions")
        self._documents[name] = document
        return document

    def tarball(self, url: str, what: str) -> bytes:
        """The bytes of a tarball (not yet checked: :func:`~sandbox_server.packages.integrity.check_integrity`)."""
        scheme = urlsplit(url).scheme
        if scheme not in ("http", "https"):
            raise PackageError(f"{what}: tarball URL {url!r} is not http(s)")
        return self._get(url, "application/octet-stream", MAX_TARBALL_BYTES, what)
