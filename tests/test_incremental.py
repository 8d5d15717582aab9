"""Re-grading re-runs only what changed: the learner's file, a module it imports, the check and
the grader modules it imports; a subset grade updates the learner's record, it does not replace it."""

from __future__ import annotations

import json
import shutil
from types import SimpleNamespace

import pytest

from grader import cli
from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import cache, runner
from tests.conftest import own_answer


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")


@pytest.fixture
def target(tmp_path):
    folder = tmp_path / "answers"
    folder.mkdir()
    own_answer(ROOT / "solutions" / "a3_broadcast.py", folder)
    return folder


def grade(folder):
    return runner.grade(folder, only=["A3"], incremental=True)["A3"]


def test_unchanged_code_is_not_regraded(target):
    first = grade(target)
    assert not first.cached and all(k.passed for k in first.key_points)
    again = grade(target)
    assert again.cached and [k.status for k in again.key_points] == [k.status for k in first.key_points]


def test_editing_the_file_or_an_import_regrades(target):
    grade(target)
    (target / "helpers.py").write_text("def align(a, n):\n    return (1,) * (n - len(a)) + tuple(a)\n")
    module = target / "a3_broadcast.py"
    module.write_text("from helpers import align\n" + module.read_text())
    assert not grade(target).cached  # the module changed
    assert grade(target).cached
    (target / "helpers.py").write_text("def align(a, n):\n    return tuple(a)\n")
    assert not grade(target).cached  # only the module it imports changed


def test_unstable_results_are_not_reused(target):
    (target / "a3_broadcast.py").write_text("import os\ndef broadcast_shape(a, b):\n    os._exit(3)\n")
    assert not grade(target).cached
    assert not grade(target).cached  # a crash is re-run, not remembered


# The tests below grade without running checks: every key point of an exercise gets the
# verdict in `graded.verdicts` (default: passed), and `graded.ids` records what was graded.


@pytest.fixture
def graded(monkeypatch):
    graded = SimpleNamespace(ids=[], verdicts={})

    def grade_exercise(ex, module_file, **kw):
        graded.ids.append(ex.id)
        return runner.uniform_result(ex, graded.verdicts.get(ex.id, "passed"), "")

    monkeypatch.setattr(runner, "grade_exercise", grade_exercise)
    monkeypatch.setattr(runner, "warm_up", lambda heavy: None)
    return graded


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of the grader's modules, free to edit, that the fingerprints are read from."""
    shutil.copytree(ROOT / "grader", tmp_path / "src" / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "SOURCE", tmp_path / "src")
    return tmp_path / "src" / "grader"


def test_an_edit_regrades_exactly_the_exercises_that_depend_on_it(project, graded):
    def regraded_after_editing(path, text="\n# edited\n"):
        with open(project / path, "a") as f:
            f.write(text)
        graded.ids.clear()
        runner.grade(ROOT / "solutions", incremental=True)
        return set(graded.ids)

    runner.grade(ROOT / "solutions", incremental=True)
    # activations.py is imported by A7's and B1's check files only (by nothing they share with others)
    assert regraded_after_editing("checks/truth/activations.py") == {"A7", "B1"}
    (project / "checks/truth/saved_bytes.py").write_text("WORD = 8\n")
    assert regraded_after_editing("checks/truth/activations.py", "from .saved_bytes import WORD\n") == {"A7", "B1"}
    assert regraded_after_editing("checks/truth/saved_bytes.py") == {"A7", "B1"}  # imported through activations
    assert regraded_after_editing("reports/html.py") == set()  # decides no verdict
    # the checks' conftest.py: imported by no check, loaded by pytest for every one of them
    assert regraded_after_editing("checks/conftest.py") == {ex.id for ex in catalog.available()}
    assert regraded_after_editing("given/tiny_models.py") == {
        ex.id for ex in catalog.available()
    }  # learners may import it


def test_a_subset_grade_updates_the_record(tmp_path, graded, capsys):
    """`make grade ONLY=X1` after a full grade: the report still shows every exercise's latest
    result, the one graded now marked; a --fresh result is kept too; an exercise whose code
    changed since its last grade is shown as not graded, not with its old verdict."""
    answers = tmp_path / "answers"
    answers.mkdir()
    for path in (ROOT / "solutions").glob("*.py"):
        shutil.copy(path, answers)

    def report(*args):
        # --no-quiz: the levels asserted here are the code's (the quiz's closed-book side has its own tests)
        assert (
            cli.main(
                [
                    "grade",
                    "--target",
                    str(answers),
                    "--json",
                    str(tmp_path / "r.json"),
                    "--html",
                    "",
                    "--no-quiz",
                    *args,
                ]
            )
            == 0
        )
        extra = json.loads((tmp_path / "r.json").read_text())["extra_data"]
        return extra, {ex_id: (e["status"], e["graded_now"]) for ex_id, e in extra.pop("exercises").items()}

    full, _ = report()
    assert full["level"] == "can-teach"  # every key point passed
    graded.verdicts["X1"] = "failed"
    extra, exercises = report("--only", "X1", "--fresh")
    assert graded.ids.count("X1") == 2 and len(exercises) == len(catalog.CATALOG)
    assert [e for e, (_, now) in exercises.items() if now] == ["X1"]
    assert extra["level"] == "mastered"  # X1 failed; nothing else moved
    assert {**extra["sets"], "X": None} == {**full["sets"], "X": None} and extra["sets"]["X"] != full["sets"]["X"]

    (answers / "a3_broadcast.py").write_text("def broadcast_shape(a, b):\n    return (1,)\n")
    extra, exercises = report("--only", "R")  # R is unchanged: nothing is graded
    assert not any(now for _, now in exercises.values())
    assert exercises["A3"] == ("not_graded", False) and extra["sets"]["A"] != full["sets"]["A"]
    x1 = [t for t in json.loads((tmp_path / "r.json").read_text())["tests"] if t.get("number") == "X1"]
    assert x1 and all(t["status"] == "failed" for t in x1)  # the --fresh result, kept in the record


def _first_gpu_point():
    return next((ex, kp) for ex in catalog.available() for kp in ex.key_points if kp.needs_gpu)


def test_a_gpu_key_point_not_verifiable_without_cuda_stands_until_the_capability_changes(graded, monkeypatch):
    """Issue 30: P3's cuda_peak can never verify without CUDA; its result is kept, keyed by the
    machine's capabilities, so a re-grade does not run P3 again, until a GPU appears."""
    ex, kp = _first_gpu_point()
    real = runner.grade_exercise

    def gpu_point_unverifiable(e, module_file, **kw):
        res = real(e, module_file, **kw)
        for k in res.key_points:
            if k.key_point == kp.id:
                k.status = "not_verifiable"
        return res

    monkeypatch.setattr(runner, "grade_exercise", gpu_point_unverifiable)
    monkeypatch.setattr(cache, "has_cuda", lambda: False)
    runner.grade(ROOT / "solutions", only=[ex.id], incremental=True)
    assert runner.grade(ROOT / "solutions", only=[ex.id], incremental=True)[ex.id].cached
    assert graded.ids == [ex.id]
    monkeypatch.setattr(cache, "has_cuda", lambda: True)  # the capability changed: graded again
    assert not runner.grade(ROOT / "solutions", only=[ex.id], incremental=True)[ex.id].cached
    assert graded.ids == [ex.id, ex.id]


def test_a_key_point_not_verifiable_under_load_is_graded_again_alone(monkeypatch):
    """X1's speed-up on a saturated machine: only that key point runs again, the rest reused."""
    ex = catalog.get("X1")
    loaded = ex.key_points[0].id
    calls = []

    def grade_exercise(e, module_file, key_points=None, **kw):
        calls.append(None if key_points is None else list(key_points))
        kps = [kp for kp in e.key_points if key_points is None or kp.id in key_points]
        verdict = "not_verifiable" if len(calls) == 1 else "passed"
        return runner.ExerciseResult(
            e.id, "graded", [runner.KeyPointResult(kp.id, verdict if kp.id == loaded else "passed") for kp in kps]
        )

    monkeypatch.setattr(runner, "grade_exercise", grade_exercise)
    monkeypatch.setattr(runner, "warm_up", lambda heavy: None)
    first = runner.grade(ROOT / "solutions", only=["X1"], incremental=True)["X1"]
    assert [k.status for k in first.key_points if k.key_point == loaded] == ["not_verifiable"]
    again = runner.grade(ROOT / "solutions", only=["X1"], incremental=True)["X1"]
    assert calls == [None, [loaded]]  # never the whole exercise
    assert [k.key_point for k in again.key_points] == [kp.id for kp in ex.key_points]
    assert all(k.passed for k in again.key_points)
    assert runner.grade(ROOT / "solutions", only=["X1"], incremental=True)["X1"].cached
    assert len(calls) == 2
