"""The mastery rules of part 7 §五.D, on drawn result sets, with their exact boundaries."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, strategies as st

from grader.course import catalog, levels
from tests.course_files import PART_7, course_dir

BY_SET = {s: [ex for ex in catalog.CATALOG if ex.set == s] for s in catalog.SETS}
ORDER = {name: i for i, name in enumerate(levels.LEVELS)}


def all_passed() -> dict:
    return {ex.id: {kp.id: True for kp in ex.key_points} for ex in catalog.CATALOG}


def fail_question(outcomes: dict, ex_id: str, n_points: int = 1) -> None:
    ex = catalog.BY_ID[ex_id]
    basic = [kp for kp in ex.key_points if not kp.followup]
    for kp in basic[:n_points]:
        outcomes[ex_id][kp.id] = False


outcome_sets = st.fixed_dictionaries(
    {
        ex.id: st.fixed_dictionaries({kp.id: st.sampled_from([True, True, True, False]) for kp in ex.key_points})
        for ex in catalog.CATALOG
    }
)


def test_everything_passed_is_can_teach_and_nothing_is_none():
    assert levels.summarize(all_passed()).level == "can-teach"
    assert levels.summarize({}).level == "none"
    nothing = {ex.id: {kp.id: False for kp in ex.key_points} for ex in catalog.CATALOG}
    assert levels.summarize(nothing).level == "none"


# The course's bars, as its pass line counts them: 「A 组至少 8 题、B 组至少 4 题」 (of its 10 and 5).
A_NEEDED, B_NEEDED = 8, 4


def test_course_bars_at_the_course_counts():
    assert levels.needed("A", 10) == A_NEEDED and levels.needed("B", 5) == B_NEEDED
    assert {s: len(BY_SET[s]) for s in "ABC"} == {"A": 10, "B": 5, "C": 7} == levels.COURSE_QUESTIONS
    with pytest.raises(levels.ClosedSetChanged, match="set A has 11 questions"):
        levels.needed("A", 11)  # 8 of 11 is no bar the course set


def test_the_counts_are_the_course_text():
    """The self-test's sets and the pass line are quoted from part 7, verbatim: the counts the
    levels use are read from those quotes, so a quote that is not the course's fails here."""
    text = (course_dir() / PART_7).read_text(encoding="utf-8")
    assert levels.SELF_TEST in text and levels.PASS_LINE_TEXT in text
    assert levels.PASS_LINE == {"A": A_NEEDED, "B": B_NEEDED}


def _with(monkeypatch, exercises) -> None:
    monkeypatch.setattr(catalog, "CATALOG", tuple(exercises))


@pytest.mark.parametrize("set_id", ["A", "B", "C"])
@pytest.mark.parametrize("change", ["added", "removed"])
def test_a_closed_set_changed_fails_loudly(monkeypatch, set_id, change):
    """Issue 25: an A11 silently moved the pass line from A >= 8 to A >= 9. A question added to or
    removed from a closed set now stops the levels, with a message that tells the maintainer why."""
    first = BY_SET[set_id][0]
    if change == "added":
        extra = dataclasses.replace(first, id=f"{set_id}{len(BY_SET[set_id]) + 1}", module="not_built_yet")
        _with(monkeypatch, [*catalog.CATALOG, extra])
    else:
        _with(monkeypatch, [ex for ex in catalog.CATALOG if ex.id != first.id])
    with pytest.raises(levels.ClosedSetChanged, match=f"set {set_id} has .* closed self-test.*set P or X"):
        levels.summarize(all_passed())


def test_an_r_item_added_fails_loudly(monkeypatch):
    (r,) = BY_SET["R"]
    more = dataclasses.replace(r, key_points=(*r.key_points, dataclasses.replace(r.key_points[0], id="another")))
    _with(monkeypatch, [more if ex.id == "R" else ex for ex in catalog.CATALOG])
    with pytest.raises(levels.ClosedSetChanged, match="set R has 13 recall items in the catalog"):
        levels.summarize(all_passed())


@pytest.mark.parametrize("field, value", [("a", (8, 11)), ("b", (4, 4)), ("r", (10, 13))])
def test_a_quiz_with_another_count_fails_loudly(field, value):
    from grader.quiz import progress

    counts = dataclasses.replace(progress.counts(progress.progress_from_rows("ada", [])), **{field: value})
    with pytest.raises(levels.ClosedSetChanged, match="in the quiz"):
        levels.summarize(all_passed(), quiz=counts)


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
