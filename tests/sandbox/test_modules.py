"""Module syntax in a script: imports become reads of the module's namespace, exports go, and the rest stays as it
was."""

from __future__ import annotations

import pytest

from sandbox_server.sandbox.source.modules import rewrite_modules
from sandbox_server.sandbox.worker.options import node_sources


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        pytest.param("import fs from 'fs';", "const { default: fs } = __importStatic('fs');", id="default"),
        pytest.param('import * as path from "node:path"', 'const path = __importStatic("node:path");', id="namespace"),
        pytest.param(
            "import { createHash, randomBytes as rb } from 'node:crypto';",
            "const { createHash, randomBytes: rb } = __importStatic('node:crypto');",
            id="named",
        ),
        pytest.param(
            "import util, { format } from 'util';",
            "const { default: util, format } = __importStatic('util');",
            id="default-and-named",
        ),
        pytest.param(
            "import d, * as ns from 'x';", "const ns = __importStatic('x'), d = ns.default;", id="default-and-namespace"
        ),
        pytest.param("import 'node:events';", "__importStatic('node:events');", id="for-effect"),
        pytest.param(
            "import {\n  a,\n  b,\n} from 'm';\nx", "const { a, b } = __importStatic('m');\n\n\n\nx", id="lines-kept"
        ),
        pytest.param("export default function main() {}", "               function main() {}", id="export-default"),
        pytest.param("export const a = 1;", "       const a = 1;", id="export-declaration"),
        pytest.param("export { a, b };", "                ", id="export-list"),
        pytest.param("const m = await import('os');", "const m = await __import('os');", id="dynamic"),
    ],
)
def test_module_syntax_becomes_what_a_script_runs(code: str, expected: str) -> None:
    assert rewrite_modules(code) == expected


@pytest.mark.parametrize(
    "code",
    [
        "const important = 1; important",
        "import type { Row } from './types';\nconst r: Row = input",
        "export * from 'x'",
        "// import fs from 'fs'\n'import x from y'",
    ],
)
def test_code_without_module_syntax_to_rewrite_comes_back_unchanged(code: str) -> None:
    assert rewrite_modules(code) == code


def test_the_node_modules_sent_are_those_the_code_names_with_what_they_load() -> None:
    assert node_sources("1 + 1") is None
    assert node_sources("const important = 1") is None
    assert node_sources("require('lodash')") == {}
    assert set(node_sources("require('node:timers/promises')") or {}) == {"timers"}
    assert set(node_sources("const { setTimeout } = await __import('timers')") or {}) == {"timers"}
    everything = set(node_sources("require(name)") or {})
    assert everything == set(node_sources("globalThis.require('timers')") or {})
    assert "timers" in everything
