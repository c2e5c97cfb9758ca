"""Whether text is TypeScript: tree-sitter's grammar always, and the TypeScript compiler where it is installed.

The compiler (``npm install --prefix ~/.cache/sandbox-server-tsc typescript@5.9``) also type-checks: a
declaration that parses can still be wrong (an alias that is only itself, a type name shadowing a global).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import tree_sitter
import tree_sitter_typescript

_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_typescript.language_typescript()))
TYPESCRIPT = Path.home() / ".cache" / "sandbox-server-tsc" / "node_modules" / "typescript"

_CHECK = """
const ts = require(process.argv[1]);
const files = JSON.parse(require("fs").readFileSync(0, "utf8"));
const options = { noEmit: true, strict: true, lib: ["lib.es2022.d.ts"], types: [], skipDefaultLibCheck: true };
const host = ts.createCompilerHost(options);
const read = host.getSourceFile;
host.fileExists = (name) => name in files || ts.sys.fileExists(name);
host.getSourceFile = (name, version) =>
  name in files ? ts.createSourceFile(name, files[name], version) : read(name, version);
const program = ts.createProgram(Object.keys(files), options, host);
const out = {};
for (const d of ts.getPreEmitDiagnostics(program)) {
  const name = d.file ? d.file.fileName : "";
  (out[name] = out[name] || []).push(ts.flattenDiagnosticMessageText(d.messageText, "\\n"));
}
process.stdout.write(JSON.stringify(out));
"""


def syntax_errors(text: str) -> list[str]:
    """The ERROR and MISSING nodes of ``text`` parsed as TypeScript, with the text around each."""
    tree = _PARSER.parse(text.encode("utf-8"))
    found = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            start = max(node.start_byte - 40, 0)
            found.append(f"{node.type} at {node.start_point}: {text.encode()[start : node.end_byte + 40]!r}")
        elif node.has_error:
            stack.extend(node.children)
    return found


def compiler_available() -> bool:
    return shutil.which("node") is not None and (TYPESCRIPT / "package.json").exists()


def type_errors(texts: dict[str, str]) -> dict[str, list[str]]:
    """What the TypeScript compiler (strict) says of each declaration file, by name; a file absent said nothing.

    Each text is checked as a module of its own (``export {}`` appended), so that their names do not meet.
    """
    files = {f"/decl/{name}.ts": text + "\nexport {};\n" for name, text in texts.items()}
    done = subprocess.run(
        ["node", "-e", _CHECK, str(TYPESCRIPT)],
        input=json.dumps(files),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found: dict[str, list[str]] = json.loads(done.stdout)
    return {name.removeprefix("/decl/").removesuffix(".ts"): messages for name, messages in found.items()}
