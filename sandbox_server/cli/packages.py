"""``sandbox-server packages add|list|remove``: the npm packages the sandbox's code may import."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sandbox_server.errors import PackageError
from sandbox_server.packages.config import registry_config
from sandbox_server.packages.lock import Lock
from sandbox_server.packages.registry import Registry
from sandbox_server.packages.resolve import parse_spec
from sandbox_server.packages.store import Store
from sandbox_server.settings import Settings

__all__ = ["add_packages_parser", "packages_command"]


def add_packages_parser(commands: argparse._SubParsersAction[Any]) -> argparse.ArgumentParser:
    """The ``packages`` command and its actions."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "packages",
        help="add, list or remove the npm packages code may import (downloaded once, checked, used offline)",
    )
    actions = parser.add_subparsers(dest="packages_command", metavar="ACTION", required=True)
    add = actions.add_parser(
        "add",
        help="add packages from the npm registry (SANDBOX_NPM_REGISTRY, npm_config_registry, ~/.npmrc, or the "
        "public one); install scripts never run",
    )
    add.add_argument("specs", nargs="*", metavar="NAME[@RANGE]", help="e.g. lodash date-fns@^4 dayjs@1.11.13")
    add.add_argument("--lock", dest="lock_file", metavar="FILE", help="add exactly the packages of this lock file")
    listing = actions.add_parser("list", help="list the added packages")
    listing.add_argument("--json", action="store_true", help="print the list as JSON")
    remove = actions.add_parser("remove", help="remove an added package (and what only it needed)")
    remove.add_argument("names", nargs="+", metavar="NAME")
    return parser  # the settings' flags, --packages-dir among them, are added by the caller


def _store(settings: Settings) -> Store:
    return Store(settings.packages_path)


def packages_command(args: argparse.Namespace, settings: Settings) -> int:
    """Run one ``packages`` action; returns the exit status (messages on stderr, results on stdout)."""
    store = _store(settings)
    try:
        if args.packages_command == "list":
            return _list(store, args.json)
        if args.packages_command == "remove":
            for name in args.names:
                store.remove(name)
                sys.stderr.write(f"removed {name}\n")
            return 0
        return _add(store, args.specs, args.lock_file)
    except PackageError as exc:
        sys.stderr.write(f"sandbox-server packages: {exc}\n")
        return 1


def _add(store: Store, specs: list[str], lock_file: str | None) -> int:
    if bool(specs) == bool(lock_file):
        sys.stderr.write("sandbox-server packages add: name packages (NAME[@RANGE] ...) or --lock FILE, not both\n")
        return 2
    config = registry_config()
    with Registry(config) as registry:
        if lock_file is not None:
            path = Path(lock_file)
            try:
                given = Lock.from_text(path.read_text(encoding="utf-8"), str(path))
            except OSError as exc:
                raise PackageError(f"cannot read the lock file {path}: {exc}") from exc
            lock = store.add_lock(registry, given)
            names = sorted(given.roots)
        else:
            wanted = [parse_spec(spec) for spec in specs]
            lock = store.add(registry, wanted)
            names = [item.name for item in wanted]
    for name in names:
        root = lock.roots[name]
        sys.stdout.write(f"added {name}@{root.version}\n")
    sys.stderr.write(
        f"{len(lock.packages)} packages in {store.root} (from {config.url}); restart a running server to use them\n"
    )
    return 0


def _list(store: Store, as_json: bool) -> int:
    listed = store.listing()
    if as_json:
        data = [
            {"name": p.name, "range": p.range, "version": p.version, "dependencies": p.dependencies} for p in listed
        ]
        sys.stdout.write(json.dumps({"folder": str(store.root), "packages": data}, indent=2) + "\n")
        return 0
    if not listed:
        sys.stdout.write(f"no packages added (folder: {store.root}); add some with: sandbox-server packages add NAME\n")
        return 0
    for item in listed:
        extra = f", {item.dependencies} dependencies" if item.dependencies else ""
        sys.stdout.write(f"{item.name}@{item.version} (asked: {item.range}{extra})\n")
    return 0
