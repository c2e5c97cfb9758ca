"""The server's keys for what it gives clients to hand back: the ``requestState`` of a paused run and session handles.

``SANDBOX_STATE_KEYS`` (environment only: secrets do not belong on a command line) holds one or more comma-separated
secrets of at least 32 bytes; the first seals, every one unseals, so keys rotate without breaking what is in flight
(``new,old``, then ``new`` once the old one's states have expired). Without it the server makes a key of its own at
start-up, which a restart or another replica does not have. Request states are sealed by the SDK's
``RequestStateBoundary`` (AES-256-GCM, expiring, bound to the call and the principal); session handles by the same
cipher under keys derived apart, so that one can never be taken for the other.

When a request state does not unseal, the SDK answers a fixed message and logs why; :class:`DiagnosingCodec` keeps
the reason for the request, so that :func:`state_problem_message` can tell the client what to do about it.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import json
import os
import time
from collections.abc import Mapping

from mcp.server.request_state import AESGCMRequestStateCodec, InvalidRequestState, RequestStateSecurity

from sandbox_server.errors import ConfigurationError

__all__ = [
    "HANDLE_PREFIX",
    "STATE_KEYS_VARIABLE",
    "DiagnosingCodec",
    "EntryRefused",
    "HandleRefused",
    "StateKeys",
    "state_keys_from",
    "state_problem_message",
]

STATE_KEYS_VARIABLE = "SANDBOX_STATE_KEYS"
MIN_KEY_BYTES = 32
HANDLE_PREFIX = "h."
"""How a session handle starts (the sealed token follows)."""
_HANDLE_LABEL = b"sandbox-server/session-handle/v1"
_ENTRY_LABEL = b"sandbox-server/state-store-entry/v1"

_problem: contextvars.ContextVar[str | None] = contextvars.ContextVar("sandbox_state_problem", default=None)


class HandleRefused(Exception):
    """A session handle that does not unseal: altered, made up, or sealed with keys this server does not hold."""


class EntryRefused(Exception):
    """A state-store entry that does not unseal: altered, moved from another key, or sealed with other keys."""


def state_keys_from(environ: Mapping[str, str]) -> list[bytes] | None:
    """The keys ``SANDBOX_STATE_KEYS`` names, first (sealing) first; None when it is unset or empty.

    Raises:
        ConfigurationError: A key is shorter than 32 bytes, or two are the same.
    """
    text = environ.get(STATE_KEYS_VARIABLE, "").strip()
    if not text:
        return None
    keys = [part.strip().encode("utf-8") for part in text.split(",")]
    for index, key in enumerate(keys, 1):
        if len(key) < MIN_KEY_BYTES:
            raise ConfigurationError(
                f"{STATE_KEYS_VARIABLE}: key {index} is {len(key)} bytes long; each comma-separated key must be at "
                f"least {MIN_KEY_BYTES} bytes of secret randomness (make one with "
                '`python3 -c "import secrets; print(secrets.token_hex(32))"`)'
            )
    if len(set(keys)) != len(keys):
        raise ConfigurationError(f"{STATE_KEYS_VARIABLE} names the same key twice")
    return keys


class DiagnosingCodec:
    """The SDK's AES-GCM codec, noting for the current request why a state did not unseal or that it expired."""

    def __init__(self, keys: list[bytes]) -> None:
        self._codec = AESGCMRequestStateCodec(keys)

    def seal(self, payload: bytes) -> str:
        return self._codec.seal(payload)

    def unseal(self, token: str) -> bytes:
        try:
            payload = self._codec.unseal(token)
        except InvalidRequestState as exc:
            _problem.set(str(exc))
            raise
        try:
            claims = json.loads(payload)
            expired = not time.time() < float(claims["exp"])
        except (ValueError, KeyError, TypeError):
            expired = False
        _problem.set("expired" if expired else "claims")
        return payload


class StateKeys:
    """The keys of one server: the SDK's request-state policy, and the sealing of session handles.

    Args:
        keys: From ``SANDBOX_STATE_KEYS``; None for a key of this process's own.
        ttl_s: How long a paused run's request state stays valid (``state_ttl_s``).
    """

    def __init__(self, keys: list[bytes] | None, ttl_s: float) -> None:
        self.shared = keys is not None
        material = keys if keys is not None else [os.urandom(MIN_KEY_BYTES)]
        self.ttl_s = ttl_s
        self.request_states = RequestStateSecurity(codec=DiagnosingCodec(material), ttl=ttl_s)
        self._handles = AESGCMRequestStateCodec(
            [hmac.new(key, _HANDLE_LABEL, hashlib.sha256).digest() for key in material]
        )
        self._entries = AESGCMRequestStateCodec(
            [hmac.new(key, _ENTRY_LABEL, hashlib.sha256).digest() for key in material]
        )

    def seal_entry(self, name: str, value: bytes) -> bytes:
        """``value`` sealed for a state store, bound to ``name`` (where it is kept), so that it cannot be read,
        altered, or moved to another name."""
        return self._entries.seal(name.encode("utf-8") + b"\n" + value).encode("ascii")

    def unseal_entry(self, name: str, data: bytes) -> bytes:
        """What :meth:`seal_entry` sealed under ``name``.

        Raises:
            EntryRefused: It was not sealed by these keys under this name.
        """
        try:
            payload = self._entries.unseal(data.decode("ascii"))
        except (InvalidRequestState, UnicodeDecodeError):
            raise EntryRefused("it was altered, or sealed with keys this server does not hold") from None
        prefix = name.encode("utf-8") + b"\n"
        if not payload.startswith(prefix):
            raise EntryRefused("it was sealed for another entry") from None
        return payload[len(prefix) :]

    def seal_handle(self, payload: bytes) -> str:
        return HANDLE_PREFIX + self._handles.seal(payload)

    def unseal_handle(self, handle: str) -> bytes:
        """The payload of a handle this server sealed.

        Raises:
            HandleRefused: It is not one.
        """
        if not handle.startswith(HANDLE_PREFIX):
            raise HandleRefused("it is not a session handle")
        try:
            return self._handles.unseal(handle[len(HANDLE_PREFIX) :])
        except InvalidRequestState as exc:
            if str(exc) == "unknown key":
                raise HandleRefused(
                    "it was sealed with a key this server does not hold: every replica must share the same "
                    f"{STATE_KEYS_VARIABLE}, and without it a restarted server cannot read the handles it gave before"
                ) from None
            raise HandleRefused("it was altered or was never given by this server") from None


def state_problem_message(ttl_s: float) -> str:
    """What to tell a client whose request state the SDK refused, from the reason noted for this request."""
    problem = _problem.get()
    if problem == "unknown key":
        why = (
            "it was sealed with a key this server does not hold. Every replica behind one address must share the "
            f"same {STATE_KEYS_VARIABLE}; without it, each server process seals with a key of its own, which a "
            "restart loses"
        )
    elif problem == "expired":
        why = f"it has expired: a paused run waits at most {ttl_s:g} s for its answer (--state-ttl-s)"
    elif problem == "claims":
        why = "it belongs to another call: the tool and its arguments must be the ones that were paused"
    else:
        why = "it was altered, or was never given by this server"
    return f"Invalid or expired requestState: {why}. Call the tool again, without requestState, to run the code anew."
