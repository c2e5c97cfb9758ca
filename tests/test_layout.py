"""The package's shape: imports point one way (no cycles), and no module grows past what a reader takes in at once."""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sandbox_server"
MAX_MODULE_LINES = 450
"""About 400 lines a module, with some room."""


def modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports_of(path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules a module imports when it is loaded (imports for type checking only, or inside
    functions, do not count: they run later or never)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and inner.module and inner.module.startswith("sandbox_server"):
                for alias in inner.names:
                    full = f"{inner.module}.{alias.name}"
                    found.add(full if full in known else inner.module)
            elif isinstance(inner, ast.Import):
                found.update(alias.name for alias in inner.names if alias.name.startswith("sandbox_server"))
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (an import of one's own package does not count)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph[node]:
            if target == node or node.startswith(target + "."):
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_the_imports_of_the_package_form_no_cycle() -> None:
    known = modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in known.items():
        graph[name] = {target for target in imports_of(path, known) if target in known}
    assert cycles(graph) == []


def test_no_module_of_the_package_is_longer_than_a_reader_takes_in() -> None:
    long = {
        name: lines
        for name, path in modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycles(defaultdict(set, {"a": {"b"}, "b": {"a"}, "c": {"a"}})) != []
