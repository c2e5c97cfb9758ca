"""Subresource Integrity strings (``sha512-<base64>``) as npm's registry gives them in ``dist.integrity``."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

from sandbox_server.errors import PackageError

__all__ = ["ACCEPTED_ALGORITHMS", "check_integrity", "file_digest", "strongest"]

ACCEPTED_ALGORITHMS = ("sha512", "sha384", "sha256")
"""Algorithms accepted in an integrity string, strongest first; a tarball known only by SHA-1 is refused."""


def strongest(integrity: str) -> tuple[str, bytes]:
    """The strongest accepted ``(algorithm, digest)`` of an SRI string (which may list several, space-separated).

    Raises:
        PackageError: The string holds no well-formed hash of an accepted algorithm.
    """
    found: dict[str, bytes] = {}
    for token in integrity.split():
        algorithm, _, rest = token.partition("-")
        value = rest.split("?", 1)[0]
        if algorithm not in ACCEPTED_ALGORITHMS or not value:
            continue
        try:
            digest = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            continue
        if len(digest) == hashlib.new(algorithm).digest_size:
            found.setdefault(algorithm, digest)
    for algorithm in ACCEPTED_ALGORITHMS:
        if algorithm in found:
            return algorithm, found[algorithm]
    raise PackageError(
        f"integrity {integrity[:80]!r} has no {'/'.join(ACCEPTED_ALGORITHMS)} hash: the sandbox only adds "
        "packages whose registry entry carries one (npm has published sha512 for every package since 2017)"
    )


def check_integrity(data: bytes, integrity: str, what: str) -> None:
    """Raise :class:`PackageError` unless ``data`` has the digest ``integrity`` names (its strongest one)."""
    algorithm, expected = strongest(integrity)
    actual = hashlib.new(algorithm, data).digest()
    if not hmac.compare_digest(actual, expected):
        raise PackageError(
            f"{what}: the downloaded tarball does not match its integrity {algorithm}-"
            f"{base64.b64encode(expected).decode()[:16]}... (got {base64.b64encode(actual).decode()[:16]}...): "
            "nothing of it was unpacked; the registry or something between it and this machine served other bytes"
        )


def file_digest(data: bytes) -> str:
    """The digest the index keeps for one stored file: SHA-256, as hex."""
    return hashlib.sha256(data).hexdigest()
