"""No check file depends on another: ground truth two exercises share lives in
grader/checks/truth/, helpers in grader/checks/support/ (docs/maintaining.md, the checklist). A static
scan, so it runs in milliseconds and needs no grading.

Importing another exercise's check file would run its tests' module code in this exercise's
process and tie the two verdicts together; calling ``test_x.hypothesis.inner_test`` runs a test
without its own draws, settings and failure reporting (Hypothesis internals, not an API)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader.course.catalog import CHECKS_DIR

CHECK_MODULES = {p.stem for p in CHECKS_DIR.glob("test_*.py")}
SOURCES = sorted(p for p in CHECKS_DIR.rglob("*.py"))  # the check files and their truth/, support/


def _imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every module an import statement names, with ``from pkg import name`` as ``pkg.name`` too."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}".lstrip(".") if node.module else alias.name)
                      for alias in node.names]
    return found


def _names_a_check_module(module: str) -> bool:
    return any(part in CHECK_MODULES for part in module.split("."))


def _dynamic_imports(tree: ast.AST) -> list[tuple[int, str]]:
    """``importlib.import_module("...")`` / ``__import__("...")`` with a literal module name."""
    return [(node.lineno, arg.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            for arg in node.args[:1] if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(CHECKS_DIR)) for p in SOURCES])
def test_no_check_module_imports_a_check_file(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = sorted({f"line {line}: {module}" for line, module in _imported_modules(tree) + _dynamic_imports(tree)
                  if _names_a_check_module(module)})
    assert not bad, f"{path.name} imports a check file (shared ground truth goes in truth/): {bad}"


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(CHECKS_DIR)) for p in SOURCES])
def test_no_hypothesis_internals(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = sorted({node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and node.attr in ("inner_test", "hypothesis")
                  and not (isinstance(node.value, ast.Name) and node.value.id == "hypothesis")})
    assert not bad, (f"{path.name} reaches into a test's Hypothesis wrapper (.hypothesis.inner_test) at "
                     f"line(s) {bad}: draw with @given, or call a plain function")
