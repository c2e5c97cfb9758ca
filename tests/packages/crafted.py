"""Small packages made for the tests, each showing one rule of how Node 20 loads modules."""

from __future__ import annotations

from pathlib import Path

from sandbox_server.packages.config import RegistryConfig
from sandbox_server.packages.registry import Registry
from sandbox_server.packages.resolve import parse_spec
from sandbox_server.packages.store import Store

from .fake_registry import FakeRegistry, package_files, serving, tarball

CRAFTED: dict[str, tuple[dict[str, str], dict[str, object]]] = {
    # ES modules: live bindings, a shadowed import, export *, an anonymous default, a cycle.
    "live": (
        {
            "index.js": "export let count = 0;\nexport function bump() { count += 1; }\n"
            "export * from './more.js';\nexport default function () { return 'anonymous'; }\n",
            "more.js": "import { count } from './index.js';\nexport const seen = () => count;\n"
            "export function shadow(count) { return count * 2; }\n",
        },
        {"type": "module", "exports": "./index.js"},
    ),
    # Conditions: require and import get different files; module-sync wins where listed first.
    "dual": (
        {
            "req.cjs": "module.exports = { kind: 'require' };",
            "imp.mjs": "export const kind = 'import';",
            "sync.js": "module.exports = { kind: 'module-sync' };",
            "lib/x.js": "module.exports = 'x';",
            "internal.js": "module.exports = 'internal';",
            "self.js": "module.exports = require('dual/sub');",
        },
        {
            "exports": {
                ".": {"import": "./imp.mjs", "require": "./req.cjs"},
                "./sync": {"module-sync": "./sync.js", "default": "./req.cjs"},
                "./sub": "./lib/x.js",
                "./self": "./self.js",
                "./lib/*": "./lib/*.js",
                "./package.json": "./package.json",
            },
            "imports": {"#internal": "./internal.js"},
        },
    ),
    # No exports: main, folders, extensions; and what it reads of process and globals.
    "plain": (
        {
            "main.js": "module.exports = { env: process.env.NODE_ENV, keys: Object.keys(process.env).length, "
            "frozen: Object.isFrozen(process.env), internal: require('#x'), dir: __dirname, file: __filename, "
            "same: this === module.exports, global: typeof global.process.env };",
            "sub/index.js": "module.exports = 'folder index';",
            "data.json": '{"answer": 42}',
            "spawn.js": "module.exports = require('child_process').execSync('id');",
            "escape.js": "module.exports = typeof require('fs').writeFileSync;",
            "hash.js": "module.exports = require('crypto').createHash('sha1').update('a').digest('hex');",
            "throws.js": "throw new Error('first load fails');",
        },
        {"main": "main.js", "imports": {"#x": "./sub/index.js"}},
    ),
}


def add_crafted(folder: Path) -> Path:
    """Publish the crafted packages on a registry on 127.0.0.1 and add them all into ``folder``."""
    fake = FakeRegistry()
    for name, (files, manifest) in CRAFTED.items():
        fake.publish(name, "1.0.0", tarball(package_files(name, "1.0.0", files, **manifest)))
    with serving(fake) as served, Registry(RegistryConfig(served.url, "test")) as client:
        Store(folder).add(client, [parse_spec(name) for name in CRAFTED])
    return folder
