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


def test_only_a_process_that_runs_tests_starts_a_zygote():
    """pytest-xdist's controller runs no test: its heavy zygote was CPU the two workers lacked at the start."""

    def config(workers=None, **workerinput):
        option = SimpleNamespace() if workers is None else SimpleNamespace(numprocesses=workers)
        return SimpleNamespace(option=option, **({"workerinput": workerinput} if workerinput else {}))

    assert not conftest.grades_here(config(2))  # make test's controller
    assert conftest.grades_here(config(2, workerid="gw0"))
    assert conftest.grades_here(config(0)) and conftest.grades_here(config())  # -n 0, -p no:xdist


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
    return ExerciseResult(
        ex.id, "graded", [KeyPointResult(kp.id, s) for kp, s in zip(ex.key_points, statuses, strict=True)]
    )


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


@pytest.mark.parametrize(
    "argv, module, extra",
    [
        (["classroom", "build", "{tmp}/course"], "nbgrader", "classroom"),
        (["batch", "{tmp}", "--ray"], "ray", "cluster"),
    ],
)
def test_a_command_needing_an_extra_says_how_to_install_it(tmp_path, monkeypatch, capsys, argv, module, extra):
    """nbgrader and Ray are extras (issue 30: a learner's install leaves them out): the commands
    that need them stop and say, in Chinese and English, what to install, before touching anything."""
    import importlib.util

    from grader import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a))
    assert cli.main([a.format(tmp=tmp_path) for a in argv]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert f"make deps-{extra}" in out and "默认安装不含它" in out and "leaves out" in out
    assert not (tmp_path / "course").exists()


def test_the_lock_pins_every_dependency_and_torch_cpu():
    """requirements.lock (make lock) pins each library the extras pull in, torch as the CPU build:
    every pin of pyproject.toml is in it at the same version."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = [*project["dependencies"], *(d for ds in project["optional-dependencies"].values() for d in ds)]
    lock = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", (ROOT / "requirements.lock").read_text(), re.M))
    lock = {k.lower().replace("_", "-"): v for k, v in lock.items()}
    for pin in pins:
        if "==" in pin:
            name, version = pin.split("==")
            assert lock.get(name.lower()) in (version, f"{version}+cpu"), pin
    assert lock["torch"] == "2.13.0+cpu" and not any(k.startswith("nvidia") for k in lock)


def test_treetime_counts_the_cpu_of_an_orphan():
    """scripts/treetime.py (make bench's make-test row): a process whose parent never waits for it
    (a fork server's children) still counts; ``time`` would report ~0 s for this command."""
    import subprocess
    import sys

    burn = f"{sys.executable} -c 'import time; t = time.process_time() + 0.5\nwhile time.process_time() < t: pass' &"
    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "treetime.py"), "sh", "-c", burn],
        capture_output=True,
        text=True,
        check=True,
    )
    user, system = (float(out.stderr.split(f"{k} ")[1].split(" s")[0]) for k in ("user", "sys"))
    assert user + system >= 0.4, out.stderr
