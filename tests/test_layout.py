"""The shape of the code: imports point one way (no cycles, and down the layers docs/architecture.md draws), and no
module grows past what a reader takes in at once.

Every import counts, wherever it is written: at the top of a module, inside a function or a class (it runs later,
but it still makes the importing module depend on the imported one). Only imports for the type checker
(``if TYPE_CHECKING:``) are left out: they never run.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sandbox_server", "benchmarks", "js_runtime")
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MAX_MODULE_LINES = 450
"""About 400 lines a module, with some room."""


@dataclass(frozen=True, slots=True)
class Import:
    """One import of a project module: who imports what, and on which line."""

    importer: str
    imported: str
    line: int


def modules(package: str) -> dict[str, Path]:
    """The modules of ``package`` by dotted name (a package by its own name, not ``.__init__``)."""
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes inside ``if TYPE_CHECKING:`` blocks (their ``else`` runs, so it counts)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            for statement in node.body:
                skipped.update(id(inner) for inner in ast.walk(statement))
    return skipped


def _absolute(module: str | None, level: int, importer: str, is_package: bool) -> str:
    """The absolute name a (possibly relative) ``from`` import names."""
    if not level:
        return module or ""
    parts = importer.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def imports_of(name: str, path: Path, known: dict[str, Path], package: str) -> list[Import]:
    """Every import of a module of ``package`` that ``name`` makes, anywhere in its text but type-checking blocks.

    ``from a.b import c`` imports ``a.b.c`` when that is a module, else ``a.b``; importing ``a.b.c`` also runs the
    ``__init__`` of ``a.b``, so that package counts as imported too (unless it is one of the importer's own).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    found: list[Import] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        targets: list[str] = []
        if isinstance(node, ast.ImportFrom):
            module = _absolute(node.module, node.level, name, path.name == "__init__.py")
            for alias in node.names:
                full = f"{module}.{alias.name}"
                targets.append(full if full in known else module)
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        for target in targets:
            if target != package and not target.startswith(package + "."):
                continue
            parts = target.split(".")
            for depth in range(2, len(parts) + 1):
                enclosing = ".".join(parts[:depth])
                if enclosing in known and not _is_own(name, enclosing):
                    found.append(Import(name, enclosing, node.lineno))
    return found


def _is_own(importer: str, target: str) -> bool:
    """Whether ``target`` is ``importer`` itself or a package that contains it (which is loaded before it anyway)."""
    return importer == target or importer.startswith(target + ".")


def graph_of(package: str) -> dict[str, list[Import]]:
    known = modules(package)
    return {name: imports_of(name, path, known, package) for name, path in known.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def _cycle_report(package: str) -> list[list[str]]:
    graph = graph_of(package)
    edges = {name: {found.imported for found in imports} for name, imports in graph.items()}
    report = []
    for group in cycles(edges):
        members = set(group)
        report.append(
            [
                f"{found.importer}:{found.line} -> {found.imported}"
                for name in group
                for found in graph[name]
                if found.imported in members
            ]
        )
    return report


@pytest.mark.parametrize("package", PACKAGES)
def test_the_imports_of_a_package_form_no_cycle_counting_those_inside_functions(package: str) -> None:
    assert _cycle_report(package) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_longer_than_a_reader_takes_in(package: str) -> None:
    long = {
        name: lines
        for name, path in modules(package).items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


# --- the layers ------------------------------------------------------------------------------------------------

_LAYER_ROW = re.compile(r"^\|\s*(\d+)\s*\|([^|]+)\|")
_NAME = re.compile(r"`([\w.]+)`")


def layers(text: str) -> dict[str, int]:
    """The layer of each part of ``sandbox_server`` as the table under "## Layers" in ``text`` gives it (1 is the top):
    a row ``| 3 | `server` | ... |`` puts ``sandbox_server.server`` (and every module inside it) in layer 3."""
    section = ("\n" + text).split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    placed: dict[str, int] = {}
    for line in section.splitlines():
        match = _LAYER_ROW.match(line)
        if match is None:
            continue
        for part in _NAME.findall(match.group(2)):
            name = "sandbox_server" if part == "sandbox_server" else f"sandbox_server.{part}"
            assert name not in placed, f"{part} is in two layers"
            placed[name] = int(match.group(1))
    return placed


def part_of(module: str, placed: dict[str, int]) -> str | None:
    """The part of the table that holds ``module``: the longest name that is the module or contains it."""
    candidates = [name for name in placed if module == name or module.startswith(name + ".")]
    return max(candidates, key=len) if candidates else None


def back_arrows(graph: dict[str, list[Import]], placed: dict[str, int]) -> list[str]:
    """Imports from one part to another that do not point to a lower layer."""
    found = []
    for imports in graph.values():
        for each in imports:
            source, target = part_of(each.importer, placed), part_of(each.imported, placed)
            if source is None or target is None or source == target or _is_own(source, target):
                continue
            if placed[target] <= placed[source]:
                found.append(
                    f"{each.importer}:{each.line} (layer {placed[source]}) -> {each.imported} (layer {placed[target]})"
                )
    return found


def test_every_part_of_the_package_has_a_layer_in_the_drawn_structure() -> None:
    placed = layers(ARCHITECTURE.read_text(encoding="utf-8"))
    unplaced = sorted(name for name in modules("sandbox_server") if part_of(name, placed) is None)
    assert unplaced == []


def test_every_import_points_down_the_drawn_layers() -> None:
    placed = layers(ARCHITECTURE.read_text(encoding="utf-8"))
    assert back_arrows(graph_of("sandbox_server"), placed) == []


# --- the checks themselves can fail ------------------------------------------------------------------------------


def test_the_cycle_check_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_an_import_inside_a_function_or_a_class_counts_and_a_type_checking_one_does_not(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from sandbox_server import settings\n"
        "def later():\n"
        "    from sandbox_server.server import build_server\n"
        "class Holder:\n"
        "    import sandbox_server.platform\n",
        encoding="utf-8",
    )
    known = modules("sandbox_server")
    found = {each.imported for each in imports_of("sandbox_server.example", source, known, "sandbox_server")}
    assert found == {"sandbox_server.server", "sandbox_server.platform"}


def test_importing_a_module_inside_a_package_counts_as_importing_the_package(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text("from sandbox_server.sandbox.protocol import HEADER\n", encoding="utf-8")
    known = modules("sandbox_server")
    found = {each.imported for each in imports_of("sandbox_server.example", source, known, "sandbox_server")}
    assert found == {"sandbox_server.sandbox", "sandbox_server.sandbox.protocol"}


def test_a_relative_import_is_resolved_against_its_module(tmp_path: Path) -> None:
    source = tmp_path / "example.py"
    source.write_text("from ..protocol import HEADER\nfrom .. import limits\n", encoding="utf-8")
    known = modules("sandbox_server")
    name = "sandbox_server.sandbox.worker.example"
    found = {each.imported for each in imports_of(name, source, known, "sandbox_server")}
    assert found == {"sandbox_server.sandbox.protocol", "sandbox_server.sandbox.limits"}


def test_an_import_up_the_layers_is_a_back_arrow() -> None:
    placed = layers("## Layers\n| 1 | `server` | |\n| 2 | `tools`, `registry` | |\n| 3 | `sandbox` | |\n")
    upward = {"sandbox_server.sandbox.pool": [Import("sandbox_server.sandbox.pool", "sandbox_server.tools.add", 7)]}
    downward = {"sandbox_server.tools.add": [Import("sandbox_server.tools.add", "sandbox_server.sandbox", 3)]}
    sideways = {"sandbox_server.tools.add": [Import("sandbox_server.tools.add", "sandbox_server.registry", 4)]}
    assert back_arrows(upward, placed) == [
        "sandbox_server.sandbox.pool:7 (layer 3) -> sandbox_server.tools.add (layer 2)"
    ]
    assert back_arrows(downward, placed) == []
    assert len(back_arrows(sideways, placed)) == 1
