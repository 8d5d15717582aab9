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
P1, A2, A3 = (catalog.get(i) for i in ("P1", "A2", "A3"))
# What a stub forbids, reached around the watch (issue 17, item 2): each fails every key point as a
# forbidden call, and the message names what was called.
FORBIDDEN = [
    (P1, "p1_sdpa_built_name.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_sdpa_in_thread.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_sdpa_char_codes_thread.py", ("float32_matches_sdpa", "no_future_leak"), "scaled_dot_product_attention"),
    (P1, "p1_aten_op_raw_thread.py", ("float64_matches_sdpa",), "_scaled_dot_product_flash_attention_for_cpu"),
    (P1, "p1_decomposition.py", ("float32_matches_sdpa",), "scaled_dot_product_flash_attention_for_cpu"),
    (A3, "a3_torch_refs_broadcast.py", ("matches_numpy", "raises_on_incompatible"), "_broadcast_shapes"),
    (A3, "a3_zero_stride_tensors.py", ("matches_numpy",), "torch"),
    (A3, "a3_meta_tensors.py", ("matches_numpy",), "torch"),
    (A3, "a3_numpy_type_prefetched.py", ("matches_numpy", "different_lengths"), "numpy.ndarray"),
    (A3, "a3_numpy_hidden_in_thread.py", ("matches_numpy",), "numpy"),
    (A3, "a3_torch_refs_hidden_thread.py", ("matches_numpy",), "torch._refs"),
    (A2, "a2_computed_import_thread.py", ("nbytes_matches_meta_tensor", "full_index_expressions"), "torch"),
    (A2, "a2_hidden_import_thread.py", ("nbytes_matches_meta_tensor",), "torch"),
    # issue 27 S3: the name built at run time in ways the scan cannot fold (exec, eval, importlib)
    (P1, "p1_sdpa_exec_base64.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_sdpa_compiled_char_codes.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_sdpa_importlib_reversed.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_sdpa_aten_op_built.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_profile_hook_off.py", ("float32_matches_sdpa",), "switches off the grader's watch"),
    (A3, "a3_numpy_in_subprocess.py", ("matches_numpy",), "another program"),
    (A3, "a3_numpy_in_spawned_pool.py", ("matches_numpy",), "another program"),
    (A3, "a3_numpy_subclass.py", ("matches_numpy",), "numpy.ndarray (a base of _A)"),
    # issue 27: called once per input, then remembered, so the replay passes (Hypothesis: flaky)
    (P1, "p1_sdpa_remembered.py", ("float32_matches_sdpa",), "scaled_dot_product_attention"),
    (P1, "p1_sdpa_remembered_where_mine_overflows.py", ("large_logits",), "scaled_dot_product_attention"),
]
# A forked helper answering for the learner's process: a rule's answer runs in one process, so the
# kernel refuses the fork (sandbox.one_process_filter) and no key point passes.
REFUSED = [
    (P1, "p1_sdpa_in_forked_child.py", ("float32_matches_sdpa",)),
    (A3, "a3_numpy_in_child_forked_at_import.py", ("matches_numpy",)),
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
    assert all(kp.status == "failed" for kp in res.key_points), [
        (kp.key_point, kp.status, kp.message) for kp in res.key_points
    ]


@pytest.mark.parametrize("ex,name,key_points,needle", FORBIDDEN, ids=[c[1] for c in FORBIDDEN])
def test_forbidden_call_is_caught(ex, name, key_points, needle, tmp_path):
    answer = tmp_path / f"{ex.module}.py"
    reference = catalog.ROOT / "solutions" / f"{ex.module}.py"
    answer.write_text(reference.read_text() + "\n\n# ---- the cheat\n" + (HERE / name).read_text())
    res = runner.grade_exercise(ex, answer, key_points=key_points, name_mistakes=False)
    got = [(kp.key_point, kp.status, kp.message) for kp in res.key_points]
    assert len(got) == len(key_points) and all(status == "forbidden_call" for _, status, _ in got), got
    assert all(m.startswith("forbidden call:") and needle in m for _, _, m in got), got


@pytest.mark.parametrize("ex,name,key_points", REFUSED, ids=[c[1] for c in REFUSED])
def test_a_new_process_is_refused(ex, name, key_points, tmp_path):
    answer = tmp_path / f"{ex.module}.py"
    reference = catalog.ROOT / "solutions" / f"{ex.module}.py"
    answer.write_text(reference.read_text() + "\n\n# ---- the cheat\n" + (HERE / name).read_text())
    res = runner.grade_exercise(ex, answer, key_points=key_points, name_mistakes=False)
    got = [(kp.key_point, kp.status, kp.message) for kp in res.key_points]
    assert len(got) == len(key_points) and not any(kp.passed for kp in res.key_points), got
    assert all("runs in one process" in m for _, _, m in got), got


class _ScriptedX1:
    """A learner whose /proc readings are scripted: threads idle (sleep), one worker process busy
    at one core. The check's own reference experiment is replaced by an unsaturated box."""

    def __init__(self, p_cores: float):
        self.cpu = {"self_s": 0.0, "children_s": 0.0}
        self.p_cores = p_cores

    def cpu_times(self):
        return dict(self.cpu)

    def paused(self):
        import contextlib

        return contextlib.nullcontext()  # nothing of the scripted learner runs between calls

    def children_cpu(self):
        return {}  # no live children to sample: the scripted run reports its CPU time once joined

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
