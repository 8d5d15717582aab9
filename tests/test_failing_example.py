"""The "failing test case" block shows the input that failed, never the expected value: a check
that records its own failing input (``fail(..., example=...)``) replaces hypothesis's drawn
arguments, which may carry the expected answer (B2's drawn pair) or name a drawn case while a
fixed case failed (C1's 70B)."""

from __future__ import annotations

from grader.course import catalog
from grader.course.catalog import ROOT
from grader.engine import runner

MUTANTS = ROOT / "solutions" / "mutants"


def _failed(ex_id, mutant, key_point):
    ex = catalog.get(ex_id)
    (kp,) = runner.grade_exercise(ex, MUTANTS / ex.module / f"{mutant}.py", key_points=[key_point]).key_points
    assert kp.status == "failed", kp
    return kp


def test_b2_example_is_the_records_without_the_expected_list():
    kp = _failed("B2", "compares_metrics", "record_diff")
    assert "run_id" in kp.example and "metrics" in kp.example, kp.example  # both records are shown
    assert "pair=" not in kp.example, kp.example  # hypothesis's (a, b, expected) triple


def test_c1_example_is_the_case_that_failed():
    kp = _failed("C1", "qlora_one_byte", "qlora_state")
    shown = kp.example.replace(" ", "")  # the course's 70B case, however the arguments are laid out
    assert f"n_base={70 * 10**9},n_adapter={70 * 10**9 * 13 // 1000}" in shown, kp.example
