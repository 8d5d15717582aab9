"""The mastery rules of part 7 §五.D, on drawn result sets, with their exact boundaries."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, strategies as st

from grader.course import catalog, levels

BY_SET = {s: [ex for ex in catalog.CATALOG if ex.set == s] for s in catalog.SETS}
ORDER = {name: i for i, name in enumerate(levels.LEVELS)}


def all_passed() -> dict:
    return {ex.id: {kp.id: True for kp in ex.key_points} for ex in catalog.CATALOG}


def fail_question(outcomes: dict, ex_id: str, n_points: int = 1) -> None:
    ex = catalog.BY_ID[ex_id]
    basic = [kp for kp in ex.key_points if not kp.followup]
    for kp in basic[:n_points]:
        outcomes[ex_id][kp.id] = False


outcome_sets = st.fixed_dictionaries({
    ex.id: st.fixed_dictionaries({kp.id: st.sampled_from([True, True, True, False]) for kp in ex.key_points})
    for ex in catalog.CATALOG
})


def test_everything_passed_is_can_teach_and_nothing_is_none():
    assert levels.summarize(all_passed()).level == "can-teach"
    assert levels.summarize({}).level == "none"
    nothing = {ex.id: {kp.id: False for kp in ex.key_points} for ex in catalog.CATALOG}
    assert levels.summarize(nothing).level == "none"


# The course's bars (A >= 8 of 10, B >= 4 of 5) as fractions of however many questions the catalog has.
A_NEEDED = math.ceil(levels.NEEDED["A"] * len(BY_SET["A"]))
B_NEEDED = math.ceil(levels.NEEDED["B"] * len(BY_SET["B"]))


def test_course_bars_at_the_course_counts():
    assert levels.needed("A", 10) == 8 and levels.needed("B", 5) == 4


@pytest.mark.parametrize("set_id, needed", [("A", A_NEEDED), ("B", B_NEEDED)])
@given(data=st.data())
def test_a_and_b_boundaries(set_id, needed, data):
    n_passed = data.draw(st.integers(0, len(BY_SET[set_id])), label="questions passed")
    outcomes = all_passed()
    for ex in BY_SET[set_id][n_passed:]:
        fail_question(outcomes, ex.id)
    s = levels.summarize(outcomes)
    assert {"A": s.a_passed, "B": s.b_passed}[set_id] == n_passed
    assert s.pass_line == (n_passed >= needed)
    assert s.level == ("can-teach" if n_passed >= needed else "read")  # can-teach asks nothing more of A or B


@given(st.sampled_from(BY_SET["C"]), st.data())
def test_c_half_boundary(ex, data):
    basic = [kp for kp in ex.key_points if not kp.followup]
    n_failed = data.draw(st.integers(0, len(basic)))
    outcomes = all_passed()
    fail_question(outcomes, ex.id, n_failed)
    s = levels.summarize(outcomes)
    passed = len(basic) - n_failed
    half = 2 * passed >= len(basic)
    assert s.c_points[ex.id] == (passed, len(basic))
    assert s.pass_line == half
    assert s.level == ("can-teach" if n_failed == 0 else "mastered" if half else "read")


@given(st.sampled_from(BY_SET["C"]))
def test_c_followups_count_for_can_teach_only(ex):
    outcomes = all_passed()
    for kp in ex.key_points:
        if kp.followup:
            outcomes[ex.id][kp.id] = False
    s = levels.summarize(outcomes)
    assert s.pass_line and s.level == ("mastered" if any(k.followup for k in ex.key_points) else "can-teach")


@given(st.integers(0, 12))
def test_r_boundary(n_failed):
    (r,) = BY_SET["R"]
    outcomes = all_passed()
    for kp in r.key_points[:n_failed]:
        outcomes["R"][kp.id] = False
    s = levels.summarize(outcomes)
    read = len(r.key_points) - n_failed >= math.ceil(0.8 * len(r.key_points))
    assert (s.level != "none") == read


@given(st.sampled_from(["P1", "P2", "P3", "P4", "P5", "X1", "X2", "X3", "X4", "X5"]))
def test_p_and_x_requirements(ex_id):
    outcomes = all_passed()
    fail_question(outcomes, ex_id)
    expected = "read" if ex_id in levels.MASTERED_P else "mastered"
    assert levels.summarize(outcomes).level == expected


@given(st.sampled_from([ex.id for ex in catalog.CATALOG]))
def test_unavailable_counts_as_not_passed(ex_id):
    outcomes = all_passed()
    full = levels.summarize(outcomes)
    del outcomes[ex_id]
    s = levels.summarize(outcomes)
    ex = catalog.BY_ID[ex_id]
    assert not levels.question_passed(ex, outcomes)
    if ex.set in "ABPX":
        assert s.sets[ex.set][0] == full.sets[ex.set][0] - 1
    else:
        assert s.level == "none" if ex.set == "R" else s.c_all_points[ex_id][0] == 0


def test_not_verifiable_key_points_are_left_out():
    outcomes = all_passed()
    gpu_points = [(ex.id, kp.id) for ex in catalog.CATALOG for kp in ex.key_points if kp.needs_gpu]
    for ex_id, kp_id in gpu_points:
        outcomes[ex_id][kp_id] = None
    assert levels.summarize(outcomes).level == "can-teach"


@given(outcome_sets, st.data())
def test_passing_more_never_lowers_the_level(outcomes, data):
    failed = [(e, k) for e, kps in outcomes.items() for k, v in kps.items() if not v]
    before = levels.summarize(outcomes)
    if failed:
        e, k = data.draw(st.sampled_from(failed))
        outcomes[e][k] = True
    after = levels.summarize(outcomes)
    assert ORDER[after.level] >= ORDER[before.level]
    assert after.pass_line or not before.pass_line


@given(outcome_sets)
def test_level_implies_its_prerequisites(outcomes):
    s = levels.summarize(outcomes)
    if s.level in ("mastered", "can-teach"):
        assert s.pass_line and s.a_passed >= 8 and s.b_passed >= 4
    if s.level != "none":
        assert s.r_passed >= math.ceil(0.8 * s.r_total)
    assert (s.level == "can-teach") <= all(p == t for p, t in s.c_all_points.values())
