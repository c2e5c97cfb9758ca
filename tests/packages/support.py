"""The real npm packages the tests use, downloaded once per test session.

``fixture.lock.json`` pins lodash, date-fns, dayjs and decimal.js; the fixture adds exactly those (about 7 MB of
tarballs from the npm registry, or the one npm's settings name) into a folder under pytest's temporary directory,
checked against their integrity like any ``packages add --lock``. Without a reachable registry the tests that need
them are skipped, saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox_server.errors import PackageError
from sandbox_server.packages.config import registry_config
from sandbox_server.packages.lock import Lock
from sandbox_server.packages.registry import Registry
from sandbox_server.packages.store import Store

FIXTURE_LOCK = Path(__file__).resolve().parent / "fixture.lock.json"


def add_fixture_packages(folder: Path) -> Path:
    store = Store(folder)
    if store.lock_path.is_file():
        return folder
    lock = Lock.from_text(FIXTURE_LOCK.read_text(encoding="utf-8"), str(FIXTURE_LOCK))
    try:
        with Registry(registry_config()) as registry:
            store.add_lock(registry, lock)
    except PackageError as exc:
        if "could not reach the registry" in str(exc):
            pytest.skip(f"the npm registry is not reachable: {exc}")
        raise
    return folder


@pytest.fixture(scope="session")
def npm_packages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A packages folder holding the fixture lock's packages (shared by every test of the session: read-only)."""
    return add_fixture_packages(tmp_path_factory.getbasetemp() / "npm-packages")
