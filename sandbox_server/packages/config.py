"""Where packages come from and where they are kept.

The registry follows npm's own ``registry`` setting, so that a user who points npm at a mirror or a company
registry gets the same here: ``SANDBOX_NPM_REGISTRY`` overrides everything, else ``npm_config_registry`` (the
variable npm reads), else the ``registry=`` line of ``~/.npmrc``, else the public registry. A token for that
registry (``//host/path/:_authToken=...`` in ``~/.npmrc``) is sent as npm sends it, and never printed.

The packages folder is ``SANDBOX_PACKAGES_DIR`` when set, else ``packages`` in the per-user data folder
(``~/.local/share/sandbox-server/packages`` on Linux, as :mod:`platformdirs` names it on each system).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

from sandbox_server.errors import PackageError

__all__ = [
    "PACKAGES_DIR_VARIABLE",
    "PUBLIC_REGISTRY",
    "REGISTRY_VARIABLE",
    "RegistryConfig",
    "default_packages_dir",
    "packages_dir",
    "registry_config",
]

PUBLIC_REGISTRY = "https://registry.npmjs.org/"
REGISTRY_VARIABLE = "SANDBOX_NPM_REGISTRY"
PACKAGES_DIR_VARIABLE = "SANDBOX_PACKAGES_DIR"


@dataclass(frozen=True, slots=True)
class RegistryConfig:
    """The registry to use and how it was chosen.

    Attributes:
        url: Base URL, ending in ``/``.
        source: Which setting named it (for messages).
        token: Bearer token for it from ``~/.npmrc``, if any (kept out of ``repr``).
    """

    url: str
    source: str
    token: str | None = field(default=None, repr=False)


def _npmrc(home: Path) -> dict[str, str]:
    path = home / ".npmrc"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")) or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().strip('"').strip("'")
    return values


def _normalized(url: str, source: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise PackageError(f"{source} = {url!r} is not an http(s) URL of an npm registry")
    return url.strip().rstrip("/") + "/"


def registry_config(environ: Mapping[str, str] | None = None, home: Path | None = None) -> RegistryConfig:
    """The registry npm would use here, with ``SANDBOX_NPM_REGISTRY`` first."""
    env = os.environ if environ is None else environ
    rc = _npmrc(Path.home() if home is None else home)
    for source, value in (
        (REGISTRY_VARIABLE, env.get(REGISTRY_VARIABLE)),
        ("npm_config_registry", env.get("npm_config_registry") or env.get("NPM_CONFIG_REGISTRY")),
        ("registry in ~/.npmrc", rc.get("registry")),
    ):
        if value and value.strip():
            url = _normalized(value, source)
            return RegistryConfig(url, source, _token_for(url, rc))
    return RegistryConfig(PUBLIC_REGISTRY, "the public registry", _token_for(PUBLIC_REGISTRY, rc))


def _token_for(url: str, rc: Mapping[str, str]) -> str | None:
    """The ``_authToken`` ``~/.npmrc`` gives for ``url`` (its longest matching ``//host/path/`` prefix)."""
    parts = urlsplit(url)
    target = f"//{parts.netloc}{parts.path}"
    best: tuple[int, str] | None = None
    for key, value in rc.items():
        if not key.startswith("//") or not key.endswith(":_authToken"):
            continue
        prefix = key.removesuffix(":_authToken")
        if not prefix.endswith("/"):
            prefix += "/"
        if target.startswith(prefix) and (best is None or len(prefix) > best[0]):
            best = (len(prefix), value)
    if best is None or best[1].startswith("${"):
        return None
    return best[1]


def default_packages_dir() -> Path:
    """``packages`` in the per-user data folder."""
    return platformdirs.user_data_path("sandbox-server", appauthor=False) / "packages"


def packages_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The packages folder: ``SANDBOX_PACKAGES_DIR`` when set and not blank, else :func:`default_packages_dir`."""
    env = os.environ if environ is None else environ
    value = env.get(PACKAGES_DIR_VARIABLE, "").strip()
    return Path(value).expanduser().absolute() if value else default_packages_dir()
