"""Every hidden check can fail: solutions pass every key point, stubs pass none, every
mutant fails the key points it names (KILLED_BY), and every key point is killed by a mutant.

A mutant is ``solutions/mutants/<module>/<name>.py``: a small wrong variant of the solution
(mostly a misconception of part 7, section 四), with a docstring saying what it gets wrong and
``KILLED_BY = ("key_point", ...)``. New exercises are picked up from the catalog; nothing here
changes when one is added.
"""

from __future__ import annotations

import ast
import re

import pytest

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import stubs
from tests.conftest import MUTANT_KILLED, all_mutants, all_variants, killed_by as _killed_by, mutants_of

AVAILABLE = catalog.available()
ids = [ex.id for ex in AVAILABLE]


def _explain(res) -> str:
    return "; ".join(f"{k.key_point}={k.status} {k.message[:200]}" for k in res.key_points)


@pytest.mark.parametrize("solution_of", AVAILABLE, ids=ids)
def test_solution_passes_every_key_point(graded, solution_of):
    res = graded.get(solution_of, ROOT / "solutions" / f"{solution_of.module}.py")
    bad = [k for k in res.key_points if k.status not in ("passed", "not_verifiable")]
    assert not bad, f"{solution_of.id} solution fails: {_explain(res)}"


@pytest.mark.parametrize("stub_of", AVAILABLE, ids=ids)
def test_stub_passes_no_key_point(graded, stub_of):
    res = graded.get(stub_of, ROOT / "exercises" / f"{stub_of.module}.py")
    passed = [k.key_point for k in res.key_points if k.passed]
    assert not passed, f"{stub_of.id} stub passes {passed}"
    assert {k.status for k in res.key_points} <= {"not_implemented", "not_verifiable"}, _explain(res)
    # what every mode answers for the untouched stub without running it (grader.engine.stubs) is this verdict
    certain = stubs.untouched_result(stub_of)
    assert [(k.key_point, k.status) for k in res.key_points] == [(k.key_point, k.status) for k in certain.key_points]


@pytest.mark.parametrize("mutant", all_mutants(), ids=[f"{ex.id}-{p.stem}" for ex, p in all_mutants()])
def test_mutant_is_killed(graded, mutant, measure):
    ex, path = mutant
    expected = _killed_by(path)
    assert expected, f"{path} must name the key points that kill it in KILLED_BY"
    assert set(expected) <= {kp.id for kp in ex.key_points}, f"{path}: unknown key point in {expected}"
    res = graded.get(ex, path)
    # Only the KILLED_BY key points were run (see conftest._grade).
    if res.key_points and all(k.status == "not_verifiable" for k in res.key_points):
        pytest.skip(f"{ex.id}/{path.stem}: not verifiable on this machine now ({res.key_points[0].message})")
    failed = {k.key_point for k in res.key_points if not k.passed and k.status != "not_verifiable"}
    measure(MUTANT_KILLED, (f"{ex.id}/{path.stem}", bool(failed)))  # the session's mutation score
    assert failed, f"mutant {ex.id}/{path.stem} survived every key point"
    assert not any(k.status == "check_error" for k in res.key_points), _explain(res)
    missing = set(expected) - failed
    assert not missing, f"mutant {ex.id}/{path.stem} should fail {sorted(missing)}: {_explain(res)}"


@pytest.mark.parametrize("variant", all_variants(), ids=[f"{ex.id}-{p.stem}" for ex, p in all_variants()])
def test_valid_variant_passes(graded, variant):
    """A valid answer written another way (float32 arithmetic, another library, another order of
    independent steps) passes the key points it names in PASSES."""
    ex, path = variant
    expected = _killed_by(path, "PASSES")
    assert expected and set(expected) <= {kp.id for kp in ex.key_points}, f"{path}: PASSES must name key points"
    res = graded.get(ex, path)
    bad = [k for k in res.key_points if k.status not in ("passed", "not_verifiable")]
    assert not bad, f"valid variant {ex.id}/{path.stem} rejected: {_explain(res)}"


@pytest.mark.parametrize("ex", AVAILABLE, ids=ids)
def test_every_key_point_has_a_mutant(ex):
    """A key point that no mutant kills is a check nobody has shown able to fail."""
    covered = {kp for path in mutants_of(ex) for kp in _killed_by(path)}
    uncovered = [kp.id for kp in ex.key_points if kp.id not in covered and not kp.needs_gpu]
    assert not uncovered, f"{ex.id}: no mutant names {uncovered} in KILLED_BY"


@pytest.mark.parametrize("ex", AVAILABLE, ids=ids)
def test_checks_match_catalog_key_points(ex):
    tests = set(re.findall(r"^def test_(\w+)\(", ex.check_file.read_text(), re.M))
    assert tests == {kp.id for kp in ex.key_points}, f"{ex.check_file.name} tests vs catalog key points"


@pytest.mark.parametrize("ex", AVAILABLE, ids=ids)
def test_stub_is_documented_and_names_its_id(ex):
    tree = ast.parse((ROOT / "exercises" / f"{ex.module}.py").read_text())
    assert ast.get_docstring(tree), "the stub module needs a docstring"
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
    assert funcs, "a stub defines at least one public function"
    for fn in funcs:
        doc = ast.get_docstring(fn) or ""
        assert doc, f"{fn.name} needs a docstring (shapes, dtypes, units, errors, source)"
        assert "part" in doc.lower(), f"{fn.name}'s docstring must cite the course part"
        src = ast.unparse(fn)
        assert "NotImplementedError" in src and ex.id in src, f"{fn.name} must raise NotImplementedError naming {ex.id}"


@pytest.mark.parametrize("ex", AVAILABLE, ids=ids)
def test_solution_works_from_any_folder(ex):
    """A reference answer copied into exercises/ (or graded from a copy) must import the same way
    a learner's file does: siblings by their own name, never through the hidden solutions/
    package, except as the fallback its mutants need."""
    tree = ast.parse((ROOT / "solutions" / f"{ex.module}.py").read_text())
    fallbacks = {id(node) for t in ast.walk(tree) if isinstance(t, ast.Try) for h in t.handlers for node in ast.walk(h)}
    bad = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        and id(node) not in fallbacks
        and any(
            name.startswith("solutions")
            for name in ([node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names])
        )
    ]
    assert not bad, f"solutions/{ex.module}.py imports solutions.* at line(s) {bad}"
