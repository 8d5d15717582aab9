"""Answers that are right by the stub's contract but differ from the reference: the checks must
accept them (each issue that rejected a valid answer adds one here, with the key points it was
rejected on). A file here is appended to the reference answer: its functions replace the
reference's, the rest stays."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.course import catalog
from grader.engine import runner

HERE = Path(__file__).parent / "valid_answers"

CASES = [
    # (exercise, file, key points it must pass)
    (catalog.get("A7"), "a7_activations_fp32_norms.py", ("growth_with_inputs", "tracks_measurement")),
    (catalog.get("C3"), "c3_decode_roofline_cross_multiplied.py", ("ridge",)),
    # a key point takes its inputs from ground truth: a broken state_bytes costs only its own key points
    (catalog.get("C1"), "c1_broken_state_right_inference.py", ("inference_bytes",)),
    # what a stub forbids is watched; importing a library, threads, tables are not forbidden
    (catalog.get("A3"), "a3_imports_numpy_random.py", ("matches_numpy", "different_lengths", "raises_on_incompatible")),
    (catalog.get("P1"), "p1_einsum_in_threads.py", ("float32_matches_sdpa", "float64_matches_sdpa", "no_future_leak")),
    (catalog.get("A2"), "a2_arithmetic_in_a_thread.py", ("nbytes_matches_meta_tensor", "half_precision_nbytes")),
    # a flag strictly past +1.5 nats: a loss exactly there is not "clearly too high" (issue 28)
    (catalog.get("A5"), "a5_flags_past_one_and_a_half_nats.py", ("flags_suspicious_loss",)),
    # keys in Chinese, 「冻结的 bf16 权重」 beside 「bf16 权重」: a qualifier word decides
    (catalog.get("A6"), "a6_chinese_keys.py", ("matches_real_tensors",)),
]


@pytest.mark.parametrize("ex,name,key_points", CASES, ids=[c[1] for c in CASES])
def test_valid_answer_passes(ex, name, key_points, tmp_path):
    answer = tmp_path / f"{ex.module}.py"
    reference = catalog.ROOT / "solutions" / f"{ex.module}.py"
    answer.write_text(reference.read_text() + "\n\n# ---- a valid variant\n" + (HERE / name).read_text())
    res = runner.grade_exercise(ex, answer, key_points=key_points)
    failed = [(kp.key_point, kp.status, kp.message) for kp in res.key_points if kp.status != "passed"]
    assert not failed, failed
