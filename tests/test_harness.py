"""The test harness itself: what ``--exercise``/markers select, the grading plan, and the harness's
verdicts kept between runs by fingerprint. Cheap: nothing here grades."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import cache
from grader.engine.results import ExerciseResult, KeyPointResult
from tests import conftest

MUTANTS = conftest.MUTANTS_DIR


def _item(param=None):
    return SimpleNamespace(callspec=SimpleNamespace(params={} if param is None else {"ex": param}))


def test_exercise_selection_keeps_the_tests_bound_to_no_exercise():
    """make test ONLY=A3 once hid a failing quiz test: the tests bound to no exercise always run."""
    a3, p1 = catalog.get("A3"), catalog.get("P1")
    items = [_item(a3), _item((p1, ROOT / "x.py")), _item(), SimpleNamespace()]
    kept = conftest.selected(items, {"A3"})
    assert kept == [items[0], items[2], items[3]]


def test_every_bound_test_carries_its_exercise_marker():
    """-m A3 selects what --exercise A3 does among the bound tests; -m 'not exercise' the rest."""
    bound, unbound = _item((catalog.get("A3"), ROOT / "x.py")), _item()
    for item in (bound, unbound):
        item.markers = []
        item.add_marker = item.markers.append
        conftest.mark_exercise(item)
    assert bound.markers == ["exercise", "A3"] and unbound.markers == []


def test_the_plan_grades_each_file_once_heaviest_first():
    a3, p4 = catalog.get("A3"), catalog.get("P4")
    light, heavy = ROOT / "solutions" / "a3_broadcast.py", ROOT / "solutions" / "p4_lora_sft.py"
    cost = {light: 1.0, heavy: 50.0}
    todo = conftest.plan([(a3, light), (p4, heavy), (a3, light), (p4, heavy)], lambda ex, p: cost[p])
    assert [(e.id, p) for e, p in todo] == [("P4", heavy), ("A3", light)]


def test_a_mutant_fingerprint_covers_what_it_imports_by_package():
    """C5's clips_scaled_gradients is P2's mutant of the same name, imported through
    ``solutions.mutants.p2_training_loop``: an edit there must grade it again, though the
    learner-side closure (a flat folder, imported by bare names) cannot see it."""
    mutant = MUTANTS / "c5_four_additions" / "clips_scaled_gradients.py"
    closure = cache._closure([mutant], conftest._in_project)
    assert MUTANTS / "p2_training_loop" / "clips_scaled_gradients.py" in closure
    assert ROOT / "solutions" / "p2_training_loop.py" in closure  # what that mutant imports in turn


@pytest.fixture
def harness_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
    return conftest.HarnessCache(enabled=True)


def _result(*statuses):
    ex = catalog.get("A3")
    return ExerciseResult(ex.id, "graded", [KeyPointResult(kp.id, s) for kp, s in zip(ex.key_points, statuses)])


def test_the_harness_reuses_a_verdict_for_the_same_fingerprint_only(harness_cache, tmp_path):
    ex = catalog.get("A3")
    path = ROOT / "solutions" / "a3_broadcast.py"
    n = len(ex.key_points)
    harness_cache.put(ex, path, _result(*["passed"] * n))
    assert [k.status for k in harness_cache.get(ex, path).key_points] == ["passed"] * n
    assert conftest.HarnessCache(enabled=False).get(ex, path) is None  # --fresh-harness
    other = ROOT / "exercises" / "a3_broadcast.py"
    assert harness_cache.get(ex, other) is None  # another file: its own slot
    # A verdict the load may have decided is kept for the plan's order, never reused.
    harness_cache.put(ex, path, _result("not_verifiable", *["passed"] * (n - 1)))
    assert harness_cache.get(ex, path) is None
