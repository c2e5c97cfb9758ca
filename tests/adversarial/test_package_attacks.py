"""Attacks through npm packages: tarballs that climb out, link out or lie about their integrity, files changed after
they were added, packages that look for the host's environment or a way out of the isolate, code that pollutes
prototypes to steer the loader, and packages too large to unpack or to run."""

from __future__ import annotations

import base64
import hashlib
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.errors import PackageError
from sandbox_server.packages import tarball as tarball_module
from sandbox_server.packages.config import RegistryConfig
from sandbox_server.packages.registry import Registry
from sandbox_server.packages.resolve import parse_spec
from sandbox_server.packages.store import Store, package_folder
from sandbox_server.server import App

from ..conftest import make_settings
from ..packages.fake_registry import FakeRegistry, Member, package_files, serving, tarball

pytestmark = pytest.mark.anyio

SNOOP = """
const found = {};
found.env = process.env.SECRET_TOKEN;
found.envKeys = Object.keys(process.env).length;
try { found.globalEnv = globalThis.process.env.HOME; } catch (error) { found.globalEnv = error.code; }
try { found.viaFunction = Function('return this')().process.env.PATH; }
catch (error) { found.viaFunction = error.code; }
try { require('child_process'); } catch (error) { found.childProcess = error.code; }
try { require('fs').readFileSync('/etc/passwd', 'utf8'); found.passwd = 'read'; }
catch (error) { found.passwd = error.code || error.name; }
try { require('fs').writeFileSync('/tmp/x', 'x'); found.write = 'written'; }
catch (error) { found.write = error.code || error.name; }
const hostish = /mini|racer|python|host|notify|deliver|timer_manager/i;
found.hostNames = Object.getOwnPropertyNames(globalThis).filter((n) => hostish.test(n));
module.exports = found;
"""


def _publish(fake: FakeRegistry, name: str, members: list[Member], **fields: Any) -> None:
    fake.publish(name, "1.0.0", tarball(members), **fields)


def _add(url: str, folder: Path, name: str) -> Store:
    store = Store(folder)
    with Registry(RegistryConfig(url, "test")) as client:
        store.add(client, [parse_spec(name)])
    return store


@pytest.fixture(scope="module")
def registry() -> Any:
    fake = FakeRegistry()
    _publish(fake, "snoop", package_files("snoop", "1.0.0", {"index.js": SNOOP}))
    _publish(fake, "loops", package_files("loops", "1.0.0", {"index.js": "while (true) {}"}))
    _publish(
        fake,
        "hog",
        package_files("hog", "1.0.0", {"index.js": "const a = []; for (;;) a.push(new Array(1e5).fill(1));"}),
    )
    _publish(fake, "fine", package_files("fine", "1.0.0", {"index.js": "module.exports = 'fine';"}))
    _publish(fake, "climb", [*package_files("climb", "1.0.0", {}), Member("package/../../escaped.js", b"x")])
    _publish(fake, "absolute", [*package_files("absolute", "1.0.0", {}), Member("/tmp/absolute.js", b"x")])
    _publish(
        fake,
        "symlink",
        [*package_files("symlink", "1.0.0", {}), Member("package/out", link="../../../etc", kind="sym")],
    )
    _publish(
        fake,
        "hardlink",
        [*package_files("hardlink", "1.0.0", {}), Member("package/out", link="../../etc/passwd", kind="hard")],
    )
    _publish(
        fake,
        "inner-link",
        [
            *package_files("inner-link", "1.0.0", {"a.js": "module.exports = 1;"}),
            Member("package/b.js", link="a.js", kind="sym"),
        ],
    )
    _publish(fake, "liar", package_files("liar", "1.0.0", {"index.js": "module.exports = 'evil';"}))
    fake.integrity[("liar", "1.0.0")] = "sha512-" + base64.b64encode(hashlib.sha512(b"other bytes").digest()).decode()
    _publish(fake, "huge", package_files("huge", "1.0.0", {"big.js": "//" + "x" * 300_000}))
    with serving(fake) as served:
        yield served


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("climb", "climbs out with '..'", id="dot-dot"),
        pytest.param("absolute", "absolute path", id="absolute"),
        pytest.param("symlink", "outside the package", id="symlink-out"),
        pytest.param("hardlink", "climbs out", id="hardlink-out"),
        pytest.param("liar", "does not match its integrity", id="integrity-mismatch"),
    ],
)
def test_a_tarball_that_breaks_the_rules_is_refused_and_nothing_of_it_is_written(
    registry: FakeRegistry, tmp_path: Path, name: str, message: str
) -> None:
    folder = tmp_path / "packages"
    with pytest.raises(PackageError, match=message):
        _add(registry.url, folder, name)
    assert not (folder / "lock.json").exists()
    assert not package_folder(folder, f"{name}@1.0.0").exists()
    assert not (tmp_path / "escaped.js").exists()
    written = [path for path in folder.rglob("*") if path.is_file() and path.name != ".lock"]
    assert written == []


def test_a_link_inside_the_package_is_not_created(registry: FakeRegistry, tmp_path: Path) -> None:
    _add(registry.url, tmp_path, "inner-link")
    files = package_folder(tmp_path, "inner-link@1.0.0") / "files"
    assert (files / "a.js").is_file()
    assert not (files / "b.js").exists() and not (files / "b.js").is_symlink()


def test_a_package_over_the_size_bounds_is_refused(
    registry: FakeRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tarball_module, "MAX_FILE_BYTES", 100_000)
    with pytest.raises(PackageError, match="over 100000"):
        _add(registry.url, tmp_path, "huge")
    monkeypatch.setattr(tarball_module, "MAX_FILE_BYTES", 10**9)
    monkeypatch.setattr(tarball_module, "MAX_UNPACKED_BYTES", 200_000)
    with pytest.raises(PackageError, match="more than 200000 bytes"):
        _add(registry.url, tmp_path, "huge")


@pytest.fixture(scope="module")
def added(registry: FakeRegistry, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("attacked")
    store = Store(folder)
    with Registry(RegistryConfig(registry.url, "test")) as client:
        store.add(client, [parse_spec(name) for name in ("snoop", "loops", "hog", "fine")])
    return folder


@pytest.fixture(scope="module")
async def client(added: Path) -> AsyncIterator[Client]:
    app = App.create(make_settings(workers=1, packages_dir=added, memory_limit_mb=64))
    async with Client(build_server(app=app), mode="legacy") as connected:
        yield connected


async def run(client: Client, code: str, timeout_ms: int = 5_000) -> dict[str, Any]:
    with anyio.fail_after(60):
        result = await client.call_tool("execute_js", {"code": code, "timeout_ms": timeout_ms})
    assert result.structured_content is not None
    return result.structured_content


async def test_a_package_finds_no_host_environment_no_programs_and_no_files(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_TOKEN", "do-not-leak")
    outcome = await run(client, "JSON.stringify(require('snoop'))")
    assert outcome["error"] is None, outcome["error"]
    assert "do-not-leak" not in str(outcome)
    found = outcome["result"]
    assert '"envKeys":0' in found
    assert '"globalEnv":"ERR_SANDBOX_NO_ENV"' in found and '"viaFunction":"ERR_SANDBOX_NO_ENV"' in found
    assert '"childProcess":"ERR_SANDBOX_REFUSED_MODULE"' in found
    assert '"passwd":"read"' not in found and '"write":"written"' not in found
    assert '"hostNames":[]' in found


async def test_a_package_runs_under_the_calls_time_and_memory_limits(client: Client) -> None:
    looping = await run(client, "require('loops')", timeout_ms=500)
    assert looping["error"]["kind"] == "timeout"
    hog = await run(client, "require('hog')")
    assert hog["error"]["kind"] == "memory"
    assert (await run(client, "require('fine')"))["resultText"] == "'fine'"


@pytest.mark.parametrize(
    "pollution",
    [
        pytest.param("Object.prototype['r:fine'] = 0; Object.prototype.deps = { 'r:fine': 0 };", id="tables"),
        pytest.param(
            "Object.defineProperty(Object.prototype, 'source', { get() { return 'HIJACKED'; } });", id="source-getter"
        ),
        pytest.param("Object.prototype.get = () => 'HIJACKED'; Object.prototype.value = 'HIJACKED';", id="descriptors"),
        pytest.param("Array.prototype.push = function () { throw new Error('HIJACKED'); };", id="array-push"),
        pytest.param("JSON.parse = () => ({}); String.prototype.slice = () => 'HIJACKED';", id="builtins"),
    ],
)
async def test_polluted_prototypes_do_not_steer_the_loader(client: Client, pollution: str) -> None:
    outcome = await run(client, pollution + "\nconst name = 'fi' + 'ne';\n[require('fine'), typeof require(name)]")
    assert "HIJACKED" not in str(outcome)
    assert outcome["resultText"] is not None and outcome["resultText"].startswith("[ 'fine'"), outcome


async def test_a_file_changed_after_it_was_added_is_refused_by_a_new_server(added: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(added, copy)
    target = package_folder(copy, "fine@1.0.0") / "files" / "index.js"
    target.chmod(0o644)
    target.write_text("module.exports = 'tampered';")
    app = App.create(make_settings(workers=1, packages_dir=copy))
    async with Client(build_server(app=app), mode="legacy") as tampered:
        outcome = await run(tampered, "require('fine')")
        assert outcome["ok"] is False
        assert outcome["error"]["name"] == "TamperedPackage"
        assert "does not match the digest its lock recorded" in outcome["error"]["message"]
        assert "tampered" not in (outcome.get("resultText") or "")
        assert (await run(tampered, "1 + 1"))["resultText"] == "2"


async def test_a_lock_changed_after_the_server_started_is_not_loaded(added: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(added, copy)
    app = App.create(make_settings(workers=1, packages_dir=copy))
    (copy / "lock.json").write_text((copy / "lock.json").read_text().replace('"fine"', '"fine" '))
    async with Client(build_server(app=app), mode="legacy") as changed:
        outcome = await run(changed, "require('fine')")
        assert outcome["error"]["name"] == "TamperedPackage"
        assert "restart the server" in outcome["error"]["message"]
