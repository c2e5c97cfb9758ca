"""Generated statement-boundary cases: TypeScript that ends a line, followed by a line that could continue it.

Blanking a type can let the next line continue an expression that TypeScript's parser had ended (``y = x as
any`` then ``[0]`` is two statements in TypeScript, one in JavaScript once ``as any`` is blank). Each case here is
a TypeScript construct at the end of a line, or a plain-JavaScript look-alike of one, followed by a line that
starts with something that could continue an expression, a declaration or a class member.

What the TypeScript compiler (``transpileModule``) makes of each case is kept in ``boundary_expectations.jsonl``
(``null`` where it reports a syntax error), so that the tests compare against the compiler without needing it.
``python -m tests.sandbox.boundary_cases`` writes that file again; it needs Node and the ``typescript`` and
``acorn`` npm packages (see :func:`node_path`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

EXPECTATIONS_FILE = Path(__file__).with_name("boundary_expectations.jsonl")
ORACLE = Path(__file__).with_name("boundary_oracle.js")
TYPESCRIPT_VERSION = "5.9"
# Where the npm packages are looked for besides NODE_PATH and npm's global root:
# npm install --prefix ~/.cache/sandbox-server-tsc typescript@5.9 acorn
NPM_CACHE = Path.home() / ".cache" / "sandbox-server-tsc" / "node_modules"


@dataclass(frozen=True, slots=True)
class Case:
    """One generated program and its name (``ending/start``)."""

    name: str
    code: str


# Statement-level endings: (name, line, witness). The witness shows bindings the line declares, whose values
# the recorder that runs the cases cannot see otherwise.
ENDINGS: list[tuple[str, str, str]] = [
    ("as", "y = x as any", ""),
    ("as-array", "y = x as number[]", ""),
    ("as-generic", "y = x as Array<string>", ""),
    ("as-union", "y = x as string | number", ""),
    ("as-const", "y = [1, 2] as const", ""),
    ("as-twice", "y = x as unknown as string", ""),
    ("as-typeof", "y = x as typeof z", ""),
    ("as-qualified", "y = x as N.T", ""),
    ("as-function-type", "y = x as () => void", ""),
    ("as-tuple", "y = x as [number, string]", ""),
    ("as-in-arrow", "const g = () => x as any", "[g()]"),
    ("as-in-if", "if (c) y = x as any", ""),
    ("satisfies", "y = x satisfies object", ""),
    ("satisfies-generic", "y = x satisfies Record<string, number>", ""),
    ("non-null", "y = x!", ""),
    ("non-null-member", "y = x!.k!", ""),
    ("non-null-call", "y = f()!", ""),
    ("annotation", "let a: number", "[a]"),
    ("annotation-array", "let a: string[]", "[a]"),
    ("annotation-generic", "let a: Map<string, number>", "[a]"),
    ("annotation-union", "let a: number | undefined", "[a]"),
    ("annotation-function", "let a: (v: number) => string", "[a]"),
    ("annotation-definite", "let a!: number", "[a]"),
    ("annotation-second", "let a = 1, b: number", "[a, b]"),
    ("annotation-then-as", "let a: unknown = x as any", "[a]"),
    ("type-alias", "type T = number", ""),
    ("type-alias-array", "type T = string[]", ""),
    ("type-alias-generic", "type T<U> = U | null", ""),
    ("type-alias-conditional", "type T<U> = U extends string ? 1 : 2", ""),
    ("interface", "interface I { k: number }", ""),
    ("interface-extends", "interface I extends J {}", ""),
    ("declare-const", "declare const d: number", ""),
    ("declare-function", "declare function g(): void", ""),
    ("overload", "function f(a: string): void", ""),
    ("overload-generic", "function f<T>(a: T): T", ""),
    ("instantiation", "y = f<string>", ""),
    ("new-generic", "y = new Map<string, number>", ""),
    ("generic-call", "y = f<string>(x)", ""),
    ("type-assertion", "y = <any>x", ""),
    ("arrow-return-type", "const g = (v: number): number => v", "[g(2)]"),
    ("function-return-type", "function h(): number { return 1 }", "[h()]"),
    ("optional-parameter", "function h(v?: number) { return v }", "[h(3)]"),
    ("abstract-class", "abstract class A {}", "[typeof A]"),
    ("class-implements", "class A implements B {}", "[typeof A]"),
    ("import-type", "import type { T } from 'm'", ""),
    ("export-type", "export type { T }", ""),
]

# The same shapes in plain JavaScript: code that is JavaScript must come back as it is.
JAVASCRIPT_ENDINGS: list[tuple[str, str, str]] = [
    ("js-member-named-as", "y = x.as", ""),
    ("js-variable-named-as", "y = as", ""),
    ("js-comparisons", "y = a < b > c", ""),
    ("js-comparisons-then-paren", "y = a < b > (c)", ""),
    ("js-comparisons-member", "y = a < b.c > (d)", ""),
    ("js-variable-named-type", "y = type", ""),
    ("js-variable-named-abstract", "y = abstract", ""),
    ("js-variable-named-declare", "declare", ""),
    ("js-conditional", "y = c ? a : b", ""),
    ("js-keys-like-keywords", "y = { as: 1, type: 2, declare: 3 }", ""),
    ("js-plain", "y = x", ""),
]

# What the next line starts with.
STARTS: list[tuple[str, str]] = [
    ("paren", "(z)"),
    ("bracket", "[0]"),
    ("template", "`t`"),
    ("plus", "+z"),
    ("minus", "-z"),
    ("increment", "++z"),
    ("regex", "/re/g.test(z)"),
    ("divide", "/ 2"),
    ("dot", ".k"),
    ("leading-dot-number", ".5"),
    ("optional-member", "?.k"),
    ("conditional", "? 1 : 2"),
    ("not", "!z"),
    ("identifier", "z"),
    ("assignment", "z = 1"),
    ("less-than", "< z"),
    ("angle-brackets", "<T>(z)"),
    ("greater-than", "> z"),
    ("equals", "= 5"),
    ("strict-inequality", "!== z"),
    ("comma", ", z"),
    ("times", "* z"),
    ("bitwise-or", "| z"),
    ("bitwise-and", "& z"),
    ("in", "in z"),
    ("as", "as string"),
    ("block", "{ z }"),
    ("semicolon", ";"),
    ("class", "class Q {}"),
    ("let", "let w = 1"),
    ("await", "await z"),
    ("colon", ": number"),
    ("exclamation-dot", "!.k"),
    ("comment-then-paren", "// note\n(z)"),
    ("blank-line-then-bracket", "\n[0]"),
    ("block-comment-then-template", "/* note */ `t`"),
    ("type-alias", "type W = 1"),
    ("interface", "interface W {}"),
    ("name-as", "as"),
    ("name-type", "type"),
    ("name-abstract", "abstract"),
]

# Class members that end a line inside `abstract class A { ... }`, and what the next member line starts with.
MEMBER_ENDINGS: list[tuple[str, str]] = [
    ("field-type", "a: number"),
    ("field-optional", "a?: number"),
    ("field-definite", "a!: number"),
    ("field-declare", "declare a: number"),
    ("field-readonly", "readonly a: number"),
    ("field-public", "public a: number"),
    ("field-array-type", "a: number[]"),
    ("field-generic-type", "a: Array<number>"),
    ("field-as", "a = x as any"),
    ("field-satisfies", "a = x satisfies object"),
    ("field-non-null", "a = x!"),
    ("field-generic-call", "a = f<string>(x)"),
    ("method-overload", "m(): void"),
    ("method-return-type", "m(): number { return 1 }"),
    ("method-optional", "m?(): void"),
    ("abstract-method", "abstract m(): void"),
    ("abstract-field", "abstract a: number"),
    ("index-signature", "[k: string]: unknown"),
    ("static-typed", "static s: number"),
    ("getter-typed", "get g(): number { return 1 }"),
    ("private-method", "private m() { return 1 }"),
    ("override-field", "override a = 1"),
    ("js-field", "a = 1"),
    ("js-field-named-abstract", "abstract"),
    ("js-field-named-declare", "declare"),
    ("js-field-named-readonly", "readonly"),
]
MEMBER_STARTS: list[tuple[str, str]] = [
    ("computed-field", "[k] = 1"),
    ("computed-method", "[k]() { return 1 }"),
    ("generator", "*gen() {}"),
    ("string-name", "'s' = 1"),
    ("private-name", "#p = 1"),
    ("static", "static t = 1"),
    ("field", "b = 1"),
    ("method", "n() {}"),
    ("field-named-in", "in = 1"),
    ("initializer", "= 5"),
    ("semicolon", ";"),
    ("field-named-abstract", "abstract = 1"),
    ("field-named-declare", "declare = 1"),
    ("field-named-type", "type = 1"),
]
MEMBER_WITNESS = ";[Object.entries(new A()), Object.getOwnPropertyNames(A.prototype), Object.getOwnPropertyNames(A)]"

# Words that TypeScript gives a meaning in some places, used as plain names in JavaScript.
CONTEXTUAL_WORDS = [
    "abstract",
    "declare",
    "readonly",
    "type",
    "override",
    "public",
    "private",
    "protected",
    "satisfies",
    "as",
    "static",
    "accessor",
    "get",
    "implements",
    "interface",
    "namespace",
    "module",
    "keyof",
    "infer",
    "is",
    "asserts",
    "unique",
]
NAME_FORMS: list[tuple[str, str]] = [
    ("field", "class A { W = 1 }\n;[new A().W]"),
    ("bare-field", "class A { W }\n;['W' in new A()]"),
    ("field-then-line", "class A { W\n  b = 1 }\n;[Object.keys(new A())]"),
    (
        "field-then-method-line",
        "class A { W\n  b() {} }\n;[Object.keys(new A()), Object.getOwnPropertyNames(A.prototype)]",
    ),
    ("field-then-computed-line", "class A { W\n  [k] = 1 }\n;[Object.keys(new A())]"),
    ("method", "class A { W() { return 1 } }\n;[new A().W()]"),
    ("variable", "var W = 1\nW"),
    ("variable-then-paren", "var W = 1\nW\n(1)"),
    ("assignment-then-class", "W = 1\nclass B {}"),
    ("name-then-declaration", "W\nconst w = 1"),
    ("object-key-and-method", "o = { W: 1, W() { return 2 } }\no.W()"),
    ("parameter", "function f(W) { return W }\nf(2)"),
]
# A line that makes the code TypeScript by another sign, so that the TypeScript path reads the rest.
TYPESCRIPT_SIGN = "let t: number = 1\n"


def generate() -> list[Case]:
    """Every generated case, in a fixed order."""
    cases: list[Case] = []
    for ending_name, ending, witness in [*ENDINGS, *JAVASCRIPT_ENDINGS]:
        for start_name, start in STARTS:
            cases.append(Case(f"{ending_name}/{start_name}", _lines(ending, start, witness)))
    for ending_name, ending in MEMBER_ENDINGS:
        for start_name, start in MEMBER_STARTS:
            body = f"abstract class A {{\n  {ending}\n  {start}\n}}"
            cases.append(Case(f"member-{ending_name}/{start_name}", body + "\n" + MEMBER_WITNESS))
    for word in CONTEXTUAL_WORDS:
        for form_name, form in NAME_FORMS:
            code = form.replace("W", word)
            cases.append(Case(f"name-{word}/{form_name}", code))
            cases.append(Case(f"name-{word}/{form_name}/in-typescript", TYPESCRIPT_SIGN + code))
    return cases


def _lines(*lines: str) -> str:
    return "\n".join(line for line in lines if line)


def load_expectations(path: Path = EXPECTATIONS_FILE) -> dict[str, tuple[str, str | None]]:
    """``{name: (code, tsc output or None)}`` from the expectations file."""
    expectations: dict[str, tuple[str, str | None]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            expectations[record["name"]] = (record["code"], record["tsc"])
    return expectations


def node_path() -> str | None:
    """A NODE_PATH under which both ``typescript`` and ``acorn`` are found, or None.

    Looked for in NODE_PATH, in :data:`NPM_CACHE` and in npm's global root.
    """
    places = [place for place in os.environ.get("NODE_PATH", "").split(os.pathsep) if place]
    places.append(str(NPM_CACHE))
    npm = shutil.which("npm")
    if npm is not None:
        completed = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=60, check=False)
        if completed.returncode == 0 and completed.stdout.strip():
            places.append(completed.stdout.strip())
    found = [place for place in places if (Path(place) / "typescript").is_dir() and (Path(place) / "acorn").is_dir()]
    return os.pathsep.join(found) if found else None


def run_oracle(records: list[dict[str, str | None]], search_path: str) -> dict[str, object]:
    """What ``boundary_oracle.js`` says of ``records`` (each with ``name``, ``code`` and ``ours``)."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is not installed")
    with tempfile.TemporaryDirectory() as folder:
        cases = Path(folder) / "cases.json"
        cases.write_text(json.dumps(records), encoding="utf-8")
        completed = subprocess.run(
            [node, str(ORACLE), str(cases)],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            env={**os.environ, "NODE_PATH": search_path},
        )
    if completed.returncode != 0:
        raise RuntimeError(completed.stdout + completed.stderr)
    answer: dict[str, object] = json.loads(completed.stdout)
    return answer


def write_expectations(path: Path = EXPECTATIONS_FILE) -> int:
    """Write the compiler's reading of every case to ``path``; gives the number of cases."""
    search_path = node_path()
    if search_path is None:
        raise RuntimeError("the typescript and acorn npm packages are not installed (see NPM_CACHE)")
    cases = generate()
    answer = run_oracle([{"name": case.name, "code": case.code, "ours": None} for case in cases], search_path)
    version = str(answer["typescript"])
    if not version.startswith(TYPESCRIPT_VERSION + "."):
        raise RuntimeError(f"typescript {version} found, {TYPESCRIPT_VERSION} expected")
    results = answer["results"]
    assert isinstance(results, list)
    lines = [
        "# What the TypeScript compiler's transpileModule gives for each case of boundary_cases.py: its output",
        f"# with module syntax dropped, or null where it reports a syntax error. typescript {version}.",
        "# Written by `python -m tests.sandbox.boundary_cases`.",
    ]
    for case, result in zip(cases, results, strict=True):
        lines.append(json.dumps({"name": case.name, "code": case.code, "tsc": result["tsc"]}, ensure_ascii=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(cases)


if __name__ == "__main__":
    sys.stdout.write(f"wrote {write_expectations()} cases to {EXPECTATIONS_FILE.name}\n")
