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
    # the check's message writes the call out (its arguments all literals): the case that failed, once
    shown = kp.message.replace(" ", "")  # the course's 70B case, however the arguments are laid out
    assert f"state_bytes({70 * 10**9},{70 * 10**9 * 13 // 1000},'qlora')" in shown, kp.message
    assert not kp.example, kp.example


def test_b2_input_is_shown_once():
    """A check that writes the failing call out in its message ("verdict(scores_a=[...], ...)") gets
    no "failing input" line repeating it (grade-report showed B2's seed scores twice)."""
    from grader.reports.terminal import feedback

    kp = _failed("B2", "std_bands", "score_verdict")
    assert kp.message.startswith("verdict(scores_a=[") and not kp.example, (kp.message, kp.example)
    assert feedback(catalog.get("B2"), kp).count("verdict(") == 1


def test_a_call_named_without_its_values_keeps_the_failing_input():
    from grader.engine.misconceptions import states_the_call

    assert states_the_call("verdict(scores_a=[0.61, 0.6], scores_b=[0.62], n_questions=80)", "verdict")
    assert states_the_call("broadcast_shape((8, 1, 64), (16, 64)) must raise ValueError", "broadcast_shape")
    assert not states_the_call("diff_records(a, b) on two drawn run records", "diff_records")
    assert not states_the_call("activation_bytes(config, batch=4, seq_len=16)", "activation_bytes")
    assert not states_the_call("your code raised ValueError: different ranks", "broadcast_shape")
    assert not states_the_call("verdict(...) must return a str", "verdict")
