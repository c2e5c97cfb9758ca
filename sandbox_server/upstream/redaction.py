"""Upstream credentials never reach a log line, whichever library writes it.

Our own messages redact through :meth:`ServerConfig.redact`, but the SDK's client and the HTTP client log too (at
debug, the SDK writes each endpoint's URL, query string included). :func:`install` wraps the logging record factory
so that every record, from any logger, has the secrets of the configured servers replaced before any handler sees
it: ``env`` and ``headers`` values, the values ``${VAR}`` expanded to, and the query values and password of each
URL.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from sandbox_server.upstream.config import ServerConfig

__all__ = ["MASK", "install", "secrets_of"]

MASK = "***"
_MIN_LENGTH = 4

_secrets: tuple[str, ...] = ()
_installed = False


def secrets_of(configs: Iterable[ServerConfig]) -> set[str]:
    """Every value of these configurations that may be a credential."""
    found: set[str] = set()
    for config in configs:
        found |= {*config.secrets, *config.env.values(), *config.headers.values()}
        if config.url:
            try:
                parts = urlsplit(config.url)
                found |= {value for _, value in parse_qsl(parts.query)}
                if parts.password:
                    found.add(parts.password)
            except ValueError:
                found.add(config.url)
    return {value for value in found if len(value) >= _MIN_LENGTH}


def install(configs: Iterable[ServerConfig]) -> None:
    """Redact these configurations' secrets from every log record from now on (adds to earlier calls)."""
    global _secrets, _installed
    _secrets = tuple(sorted({*_secrets, *secrets_of(configs)}, key=len, reverse=True))
    if _installed or not _secrets:
        return
    _installed = True
    make = logging.getLogRecordFactory()

    def redacting(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: left for logging to report
            return record
        if any(secret in message for secret in _secrets):
            for secret in _secrets:
                message = message.replace(secret, MASK)
            record.msg, record.args = message, None
        return record

    logging.setLogRecordFactory(redacting)
