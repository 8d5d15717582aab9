"""Red-team cheats: answers that game a check. Each must fail the key points it games; where that
key point can be not verifiable on a loaded machine (X1's speed-up), that verdict is accepted and
the test is skipped (a mutant would have to be killed on every machine). A file here is appended
to the reference answer: its functions replace the reference's."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.course import catalog
from grader.engine import runner

HERE = Path(__file__).parent / "cheats"

CASES = [
    (catalog.get("X1"), "x1_sleepy_threads_one_worker.py", ("parallel_cpu_use",)),
    (catalog.get("A1"), "a1_child_interpreter.py", ("peak_vs_file_size",)),
    (catalog.get("A1"), "a1_detached_helper.py", ("peak_vs_file_size",)),
    (catalog.get("P4"), "p4_forged_driver.py", ("answers_and_stops",)),
    (catalog.get("X5"), "x5_patched_training.py", ("loss_curve", "generations")),
]


@pytest.mark.parametrize("ex,name,key_points", CASES, ids=[c[1] for c in CASES])
def test_cheat_is_caught(ex, name, key_points, tmp_path):
    answer = tmp_path / f"{ex.module}.py"
    reference = catalog.ROOT / "solutions" / f"{ex.module}.py"  # the cheat replaces some of its functions
    answer.write_text(reference.read_text() + "\n\n# ---- the cheat\n" + (HERE / name).read_text())
    res = runner.grade_exercise(ex, answer, key_points=key_points)
    if all(kp.status == "not_verifiable" for kp in res.key_points):
        pytest.skip(f"not verifiable on this machine now: {res.key_points[0].message}")
    assert sorted(kp.key_point for kp in res.key_points) == sorted(key_points), res
    # failed, not merely "not passed": a check error here would be the grader's bug, not a catch
    assert all(kp.status == "failed" for kp in res.key_points), [(kp.key_point, kp.status, kp.message)
                                                                 for kp in res.key_points]


class _ScriptedX1:
    """A learner whose /proc readings are scripted: threads idle (sleep), one worker process busy
    at one core. The check's own reference experiment is replaced by an unsaturated box."""

    def __init__(self, p_cores: float):
        self.cpu = {"self_s": 0.0, "children_s": 0.0}
        self.p_cores = p_cores

    def cpu_times(self):
        return dict(self.cpu)

    def busy(self, n, timeout_s=None):
        from grader.checks import test_x1_gil as x1

        self.cpu["self_s"] += 0.1  # the check's own loop is scripted at 0.1 s: above half of it
        return x1.busy_value(n)

    def run_threads(self, n_workers, tasks, timeout_s=None):
        import time
        from grader.checks import test_x1_gil as x1

        time.sleep(0.5)
        self.cpu["self_s"] += 0.06  # the work, at a small fraction of a core: sleep-padded threads
        return [x1.busy_value(n) for n in tasks]

    def run_parallel(self, n_workers, tasks, timeout_s=None):
        import time
        from grader.checks import test_x1_gil as x1

        t0 = time.perf_counter()
        time.sleep(0.3)
        self.cpu["children_s"] += self.p_cores * (time.perf_counter() - t0)
        return [x1.busy_value(n) for n in tasks]


@pytest.mark.parametrize("p_cores,caught", [(1.0, True), (1.9, False)])
def test_x1_processes_need_more_than_one_core(monkeypatch, p_cores, caught):
    """The threads run's cores are the learner's to shrink (sleep): the processes must use >= 1.3
    cores at once in absolute terms, whatever the threads did."""
    from grader.checks import test_x1_gil as x1
    from grader.checks.support.checking import KeyPointFailure

    monkeypatch.setattr(x1, "reference_gain", lambda tasks: 2.0)
    monkeypatch.setattr(x1, "own_busy_cpu_s", lambda n: 0.1)
    learner = _ScriptedX1(p_cores)
    test = x1.test_parallel_cpu_use.hypothesis.inner_test
    if caught:
        with pytest.raises(KeyPointFailure, match=r"cores at once \(their CPU time / wall time"):
            test(learner, 1_500_000)
    else:
        test(learner, 1_500_000)
