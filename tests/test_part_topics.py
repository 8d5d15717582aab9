"""R part_topics: each part the course's table (part 7, §一) names a topic in passes, and the
failing input shown is a topic the learner got wrong, not the last one asked."""

from __future__ import annotations

import pytest

from grader.checks import test_r_recall as check
from grader.checks.support.checking import KeyPointFailure
from grader.given import recall_topics as topic
from grader.i18n import current, use
from grader.isolation.learner import LearnerRaised
from tests.course_files import PART_7, course_dir

NUMERALS = "一二三四五六"
# Words of each topic as the overview table writes them: the parts whose row holds one of them.
MARKERS = {
    topic.SFT_LOSS_MASK: ("ignore_index=-100", "被 mask"),
    topic.TRAINING_LOOP: ("二十行",),
    topic.FIRST_STEP_LOSS: ("第一步 loss",),
    topic.BACKWARD_AND_GRAD: ("backward()",),
    topic.CLIPPING_AND_SCHEDULE: ("clip_grad_norm_",),
    topic.PARAM_BYTES: ("16 字节",),
    topic.ACTIVATION_MEMORY: ("checkpointing",),
    topic.DDP_VS_FSDP: ("FSDP",),
    topic.LORA_PEFT: ("peft",),
    topic.SFT_TRAINER: ("compute_loss",),
    topic.CI95: ("ci95",),
    topic.EINSUM_ATTENTION: ("einsum",),
    topic.BROADCASTING: ("广播",),
    topic.THREADS_VS_PROCESSES: ("GIL",),
    topic.PROTOCOLS: ("__getitem__",),
    topic.ROOFLINE: ("ridge",),
    topic.KV_CACHE: ("KV cache",),
    topic.RUN_RECORD: ("七项记录",),
}


def _overview_rows() -> dict[int, str]:
    text = (course_dir() / PART_7).read_text(encoding="utf-8")
    return {
        i + 1: line
        for line in text.splitlines()
        for i, n in enumerate(NUMERALS)
        if line.startswith(f"第{n}篇：") and "\t" in line
    }


def test_every_part_the_overview_table_names_passes():
    rows = _overview_rows()
    assert sorted(rows) == [1, 2, 3, 4, 5, 6], rows
    for t, words in MARKERS.items():
        stated = {part for part, row in rows.items() if any(w in row for w in words)}
        assert stated and check.PARTS_OF[t] == stated, (t, stated, check.PARTS_OF[t])


class _Learner:
    def __init__(self, answers):
        self.answers, self.last_call = answers, None

    def part_of_topic(self, t):
        self.last_call = {"request": {"op": "call", "name": "part_of_topic", "args": [t], "kwargs": {}}}
        if t not in self.answers:  # as the learner's process reports a dict lookup that missed
            raise LearnerRaised("KeyError", repr(t))
        return self.answers[t]


def test_the_course_parts_of_the_loss_mask_pass():
    for part in (3, 5):
        check.test_part_topics(learner=_Learner({**check.PART_OF, topic.SFT_LOSS_MASK: part}))


def test_the_failing_input_is_a_topic_answered_wrong():
    wrong = topic.BROADCASTING
    learner = _Learner({**check.PART_OF, wrong: 6})
    with pytest.raises(KeyPointFailure) as info:
        check.test_part_topics(learner=learner)
    assert learner.last_call["request"]["args"] == [wrong], learner.last_call
    assert list(info.value.got) == [wrong]


def test_the_quiz_accepts_each_part_the_check_accepts():
    """The quiz's R.part_topics takes the check's table (one place): a topic the course places in two
    parts is right in either, in the quiz as in the check (a tester answered 第三篇 for the SFT loss mask)."""
    from grader.quiz import bank

    part = bank.get("R.part_topics").all_parts[0]
    for t, parts in check.PARTS_OF.items():
        params = {"topic": t}
        answer, truth = part.answer_for(params, 0), part.truth(params)
        assert {n for n in range(1, 7) if answer.assess(str(n), truth)} == parts, (t, truth)
    assert "或" in answer.show(part.truth({"topic": topic.SFT_LOSS_MASK}), "zh")


def test_a_table_keyed_by_the_chinese_spelling_passes():
    """A learner who reads only Chinese keys the table by TOPICS_ZH (the stub's contract: either spelling)."""
    check.test_part_topics(learner=_Learner({topic.TOPICS_ZH[t]: part for t, part in check.PART_OF.items()}))
    both = {**check.PART_OF, **{topic.TOPICS_ZH[t]: part for t, part in check.PART_OF.items()}}
    check.test_part_topics(learner=_Learner(both))


def test_a_wrong_chinese_answer_or_none_fails():
    wrong = topic.KV_CACHE
    learner = _Learner({**check.PART_OF, topic.TOPICS_ZH[wrong]: 2})
    with pytest.raises(KeyPointFailure) as info:
        check.test_part_topics(learner=learner)
    assert learner.last_call["request"]["args"] == [topic.TOPICS_ZH[wrong]], learner.last_call
    assert list(info.value.got) == [wrong]
    with pytest.raises(KeyPointFailure):
        check.test_part_topics(learner=_Learner({t: None for t in check.PART_OF}))


def test_the_feedback_names_a_topic_in_the_readers_language():
    wrong = topic.BROADCASTING
    before = current()
    use("zh")
    try:
        with pytest.raises(KeyPointFailure) as info:
            check.test_part_topics(learner=_Learner({**check.PART_OF, wrong: 6}))
    finally:
        use(before)
    assert list(info.value.got) == [topic.TOPICS_ZH[wrong]]
    assert "Python" in info.value.hint and "显存" in info.value.hint, info.value.hint
