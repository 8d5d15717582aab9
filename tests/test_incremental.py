"""Re-grading re-runs only what changed: the learner's file, a module it imports, the check."""

from __future__ import annotations


import pytest

from grader.engine import cache
from grader.engine import runner
from grader.course.catalog import ROOT
from tests.conftest import own_answer


@pytest.fixture
def target(tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "CACHE_DIR", tmp_path / "cache")
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
