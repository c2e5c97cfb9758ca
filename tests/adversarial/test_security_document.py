"""SECURITY.md backs every claim with a test: each test it names must exist (the suite then runs it)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


def defined_tests(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    }


def test_every_test_the_security_document_names_exists() -> None:
    references = REFERENCE.findall((ROOT / "SECURITY.md").read_text(encoding="utf-8"))
    assert len(references) > 40
    missing = [f"{path}::{name}" for path, name in references if name not in defined_tests(ROOT / path)]
    assert missing == []


def test_every_adversarial_module_is_cited_by_the_security_document() -> None:
    cited = {path for path, _ in REFERENCE.findall((ROOT / "SECURITY.md").read_text(encoding="utf-8"))}
    modules = {
        f"tests/adversarial/{path.name}"
        for path in (ROOT / "tests" / "adversarial").glob("test_*.py")
        if path.name != Path(__file__).name
    }
    assert modules - cited == set()
