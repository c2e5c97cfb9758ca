"""Adding packages: versions chosen as npm chooses them, dependencies followed, the lock written, a package removed
with what only it needed, the registry taken from npm's settings, from a registry served on this machine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox_server.cli import run as cli
from sandbox_server.errors import PackageError
from sandbox_server.packages.config import PUBLIC_REGISTRY, RegistryConfig, registry_config
from sandbox_server.packages.registry import Registry
from sandbox_server.packages.resolve import parse_spec
from sandbox_server.packages.store import Store, package_folder

from .fake_registry import FakeRegistry, package_files, serving, tarball


def publish(registry: FakeRegistry, name: str, version: str, files: dict[str, str], **manifest: object) -> None:
    registry.publish(name, version, tarball(package_files(name, version, files, **manifest)), **manifest)


@pytest.fixture
def registry() -> Iterator[FakeRegistry]:
    fake = FakeRegistry()
    publish(fake, "left", "1.0.0", {"index.js": "module.exports = 'left 1.0.0';"})
    publish(fake, "left", "1.2.0", {"index.js": "module.exports = 'left 1.2.0';"})
    publish(fake, "left", "2.0.0", {"index.js": "module.exports = 'left 2.0.0';"})
    publish(fake, "right", "3.1.0", {"index.js": "module.exports = require('left');"}, dependencies={"left": "^1.0.0"})
    with serving(fake) as served:
        yield served


def add(registry: FakeRegistry, folder: Path, *specs: str) -> Store:
    store = Store(folder)
    with Registry(RegistryConfig(registry.url, "test")) as client:
        store.add(client, [parse_spec(spec) for spec in specs])
    return store


def test_a_range_gets_the_highest_version_that_satisfies_it_and_a_dependency_its_own(
    registry: FakeRegistry, tmp_path: Path
) -> None:
    store = add(registry, tmp_path, "right", "left@latest")
    lock = store.read_lock()
    assert lock.roots["left"].version == "2.0.0"
    assert lock.packages["right@3.1.0"].dependencies == {"left": "left@1.2.0"}
    assert sorted(lock.packages) == ["left@1.2.0", "left@2.0.0", "right@3.1.0"]
    index = json.loads((package_folder(tmp_path, "right@3.1.0") / "index.json").read_text())
    assert index["modules"]["index.js"] == {"format": "cjs", "requires": ["left"]}


def test_removing_a_package_removes_what_only_it_needed(registry: FakeRegistry, tmp_path: Path) -> None:
    store = add(registry, tmp_path, "right", "left@2")
    store.remove("right")
    lock = store.read_lock()
    assert sorted(lock.packages) == ["left@2.0.0"]
    assert not package_folder(tmp_path, "left@1.2.0").exists()
    with pytest.raises(PackageError, match="was not added"):
        store.remove("right")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param("left@^9", "no version satisfies", id="no-version"),
        pytest.param("Left", "not an npm package name", id="bad-name"),
        pytest.param("left@git+https://x/y.git", "only versions from the registry", id="git"),
        pytest.param("absent", "no such package", id="missing"),
    ],
)
def test_a_spec_that_cannot_be_added_says_why(registry: FakeRegistry, tmp_path: Path, spec: str, message: str) -> None:
    with pytest.raises(PackageError, match=message):
        add(registry, tmp_path, spec)
    assert not (tmp_path / "lock.json").exists()


def test_a_lock_reproduces_the_same_set_in_another_folder(registry: FakeRegistry, tmp_path: Path) -> None:
    first = add(registry, tmp_path / "one", "right")
    second = Store(tmp_path / "two")
    with Registry(RegistryConfig(registry.url, "test")) as client:
        second.add_lock(client, first.read_lock())
    assert second.read_lock().to_text() == first.read_lock().to_text()


def test_the_command_line_adds_lists_and_removes(
    registry: FakeRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SANDBOX_NPM_REGISTRY", registry.url)
    monkeypatch.setenv("SANDBOX_PACKAGES_DIR", str(tmp_path))
    assert cli(["packages", "add", "right@^3"]) == 0
    assert "added right@3.1.0" in capsys.readouterr().out
    assert cli(["packages", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed["packages"] == [{"name": "right", "range": "^3", "version": "3.1.0", "dependencies": 1}]
    assert cli(["packages", "remove", "right"]) == 0
    assert cli(["packages", "list"]) == 0
    assert "no packages added" in capsys.readouterr().out
    assert cli(["packages", "add", "nothing-here"]) == 1
    assert "no such package" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("environ", "npmrc", "expected"),
    [
        pytest.param({}, "", PUBLIC_REGISTRY, id="public"),
        pytest.param({}, "registry=https://npm.example.com/r\n", "https://npm.example.com/r/", id="npmrc"),
        pytest.param(
            {"npm_config_registry": "https://a.example/"},
            "registry=https://b.example/",
            "https://a.example/",
            id="npm-config-over-npmrc",
        ),
        pytest.param(
            {"SANDBOX_NPM_REGISTRY": "https://c.example", "npm_config_registry": "https://a.example/"},
            "",
            "https://c.example/",
            id="sandbox-over-all",
        ),
    ],
)
def test_the_registry_follows_npm_settings_with_the_sandbox_variable_first(
    tmp_path: Path, environ: dict[str, str], npmrc: str, expected: str
) -> None:
    (tmp_path / ".npmrc").write_text(npmrc + "//npm.example.com/r/:_authToken=secret\n")
    config = registry_config(environ, tmp_path)
    assert config.url == expected
    assert (config.token == "secret") == (expected == "https://npm.example.com/r/")
    assert "secret" not in repr(config)
