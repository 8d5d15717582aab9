"""One withholding rule for everything a failure prints (hint, course line, named mistake): before a
key point's reveal nothing it prints states an item of its exercise's ``forbidden`` list or a fact
of set R, and a revealed key point prints nothing a recall key point of the same report still
withholds (red team: A9's hint and course line gave the KV-cache shape away; R's einsum_pv's
course line gave einsum_qk's subscripts)."""

from __future__ import annotations

import pytest

from grader.course import catalog
from grader.engine import attempts
from grader.engine.results import ExerciseResult, KeyPointResult

POINTS = [(ex, point) for ex in catalog.CATALOG for point in ex.key_points]


@pytest.mark.parametrize("ex,point", POINTS, ids=[f"{ex.id}-{p.id}" for ex, p in POINTS])
def test_a_first_failure_prints_nothing_withheld(ex, point):
    # the worst case: a hint and a named mistake that say what the course line says
    kp = KeyPointResult(
        point.id, "failed", "checked", expected="12345", got="1", hint="", misconception=""
    )  # the course line alone
    s = attempts.shown(ex, kp, count=0)
    printed = [s.hint, s.lesson, s.misconception]
    assert not catalog.states_withheld(ex, *printed), (ex.id, point.id, catalog.states_withheld(ex, *printed))


def test_a9_shape_hint_and_course_line_wait_for_the_reveal():
    ex = catalog.get("A9")
    kp = KeyPointResult(
        "matches_dynamic_cache",
        "failed",
        "bytes",
        expected="4096",
        got="2048",
        hint="each layer caches K and V of shape [B, n_kv_heads, T, head_dim]",
    )
    first, revealed = attempts.shown(ex, kp, count=0), attempts.shown(ex, kp, count=3)
    assert "n_kv_heads" not in first.hint + first.lesson and first.expected == "4096"
    assert "n_kv_heads" in revealed.hint and revealed.lesson


def test_a_revealed_key_point_keeps_a_withheld_neighbours_fact(tmp_path):
    tries = attempts.Attempts(tmp_path / "exercises", cache_dir=tmp_path / "cache")

    def run(pv_got):
        return {
            "R": ExerciseResult(
                "R",
                "graded",
                [
                    KeyPointResult("einsum_qk", "failed", "einsum", expected="btd,bsd->bts", got="x"),
                    KeyPointResult("einsum_pv", "failed", "einsum", expected="bts,bsd->btd", got=pv_got),
                ],
            )
        }

    for wrong in ("a", "b", "c"):  # einsum_pv reaches its reveal, einsum_qk stays at one attempt
        tries.record(run(wrong))
    qk, pv = attempts.gate(run("c"), tries)["R"].key_points
    assert qk.expected is None and pv.expected == "bts,bsd->btd"
    assert "btd,bsd->bts" not in pv.lesson + pv.hint, pv
