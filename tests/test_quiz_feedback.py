"""What a learner reads after an answer, for every question part (issue 26): the tolerance stated is
the tolerance applied, the right value is shown at the precision that decides right and wrong, no
raw LaTeX, and the course's own answer forms (1/8, an option by its name, 不重叠) are accepted."""

from __future__ import annotations

import math
import re

import pytest

from grader.quiz import bank, session, units
from grader.quiz.answers import Choice, Number, YesNo

SLOW = {
    "A7",
    "B1",
    "A8",
    "A1",
    "R.bytes_per_param",
}  # real measurements: their course variant only (cached per process)


def _variants(q):
    out = [q.course_variant()] if q.course is not None else []
    if q.id not in SLOW or not out:
        out.append(q.variant(12345))
    return out


def _number_parts():
    for q in bank.questions():
        for v in _variants(q):
            for part in v.parts():
                answer = v.answer(part)
                if isinstance(answer, Number):
                    yield q, v, part, answer


def _stated_bounds(answer: Number, truth: float) -> tuple[float, float]:
    """(lowest, highest) right value, read back from the English tolerance the learner is shown."""
    text, u = answer.tol.describe("en", answer.u), answer.u
    if text == "exact":
        return truth, truth
    m = re.fullmatch(r"([\d.e+-]+)x-([\d.e+-]+)x of the measured value", text)
    if m:
        lo, hi = sorted((truth * float(m.group(1)), truth * float(m.group(2))))
        return lo, hi
    slack = 0.0
    for piece in re.split(r" or |, whichever is larger", text):
        piece = piece.strip()
        if not piece:
            continue
        if m := re.fullmatch(r"±([\d.e+-]+)%( of the value)?", piece):
            slack = max(slack, float(m.group(1)) / 100 * abs(truth))
        elif m := re.fullmatch(r"±([\d.e+-]+) percentage points", piece):
            slack = max(slack, float(m.group(1)) / 100)
        elif piece.startswith("±"):
            slack = max(slack, units.parse(piece[1:], answer.dim, u).value)
        else:
            raise AssertionError(f"unreadable tolerance {text!r}")
    return truth - slack, truth + slack


def test_the_stated_tolerance_is_the_applied_one_for_every_part():
    checked = 0
    for q, v, part, answer in _number_parts():
        truth = float(v.truth(part))
        lo, hi = _stated_bounds(answer, truth)
        where = (q.id, part.id, answer.tol.describe("en", answer.u), truth)
        inside = [lo + 0.02 * (truth - lo), hi - 0.02 * (hi - truth)]
        outside = [lo - 0.02 * max(truth - lo, abs(truth) * 1e-6), hi + 0.02 * max(hi - truth, abs(truth) * 1e-6)]
        for x in inside:
            assert answer.tol.ok(x, truth), ("stated inside, refused", x, where)
        for x in outside:
            if x >= 0 or answer.signed:
                assert not answer.tol.ok(x, truth), ("stated outside, accepted", x, where)
        checked += 1
    assert checked > 40


def test_the_right_value_is_shown_at_the_precision_that_decides():
    """Whatever rounds to the value shown is right: 11.87 is never marked wrong beside "11.9"."""
    for q, v, part, answer in _number_parts():
        truth = float(v.truth(part))
        main = answer.show(truth, "en").split(" (")[0]
        got = answer.parse(main)
        assert answer.assess(got, truth), (q.id, part.id, main, truth)
        step = units.resolution(got.value / answer.u.factor, answer.show_sig(truth)) * answer.u.factor
        for x in (got.value - 0.49 * step, got.value + 0.49 * step):
            assert answer.tol.ok(x, truth), (q.id, part.id, main, truth, x)


def test_no_raw_latex_in_a_question_or_an_answer():
    for q in bank.questions():
        for v in _variants(q)[:1]:
            texts = [
                session.plain(v.text("zh")),
                session.plain(v.text("en")),
                session.plain(q.answer_zh),
                session.plain(q.answer_en),
            ]
            texts += [session.plain(v.prompt(p, lang)) for p in v.parts() for lang in ("zh", "en")]
            for text in texts:
                assert not re.search(r"\\[a-zA-Z(\[]|\\\)", text), (q.id, text)


@pytest.mark.parametrize(
    "qid,part_id,typed",
    [
        ("C1", "inference", "1/8"),  # the course: "推理为什么只有 1/8"
        ("C1", "strategy", "FSDP"),  # an option by its name
    ],
)
def test_the_course_answer_forms_are_accepted(qid, part_id, typed):
    q = bank.get(qid)
    v = q.course_variant() if q.course is not None else q.variant(1)
    part = q.part(part_id)
    answer = v.answer(part)
    assert answer.assess(answer.parse(typed), v.truth(part)), (typed, v.truth(part))


def test_echo_answers_in_the_course_words():
    """C6 asks 两条带重叠吗？: 重叠 / 不重叠 answer it, as C2's 健康吗？ takes 健康 / 不健康."""
    for qid, part_id in (("C6", "bands"), ("C2", "grad_norm")):
        q = bank.get(qid)
        v = q.variant(7)
        part = q.part(part_id)
        answer = v.answer(part)
        assert isinstance(answer, YesNo)
        echo = answer.echoing(v.prompt(part, "zh"))
        truth = bool(v.truth(part))
        word = {"C6": "重叠", "C2": "健康"}[qid]
        assert echo.assess(echo.parse(word if truth else "不" + word), truth)
        assert not echo.assess(echo.parse("不" + word if truth else word), truth)


def test_every_choice_can_be_typed_by_its_name_or_letter():
    for q in bank.questions():
        v = _variants(q)[0]
        for part in v.parts():
            answer = v.answer(part)
            if type(answer) is not Choice:
                continue
            for i, o in enumerate(answer.options):
                assert answer.parse("abcdefghijklmnopqrstuvwxyz"[i]) == o.key
                named = answer.by_name(o.en)
                assert named is None or named.key == o.key, (q.id, part.id, o)


def test_negative_values_only_where_a_truth_can_be_negative():
    for q, v, part, answer in _number_parts():
        truth = float(v.truth(part))
        assert truth >= 0 or answer.signed or answer.dim == "number", (q.id, part.id, truth)
        assert math.isfinite(truth)


@pytest.mark.parametrize("seed", range(40))
def test_b2_premise_is_the_difference_its_seeds_show(seed):
    """B2 states a difference of d points and shows the seeds: d is their means' difference."""
    q = bank.get("B2")
    v = q.variant(seed) if seed else q.course_variant()
    a = [float(x) for x in v.view()["a_text"].split(", ")]
    b = [float(x) for x in v.view()["b_text"].split(", ")]
    stated = float(v.view()["d"])
    assert abs((sum(b) / len(b) - sum(a) / len(a)) - stated) <= 0.06, (stated, a, b)
