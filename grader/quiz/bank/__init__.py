"""The question bank: sets R, A, B and C of part 7, §五 (and R: the must-remember lines of §二).

A :class:`Question` holds the course's wording as a template (the Chinese original, verbatim, with
its numbers as fields, and an English rendering), a ``draw`` that picks every number afresh for a
variant, and its :class:`Part` s: the sub-answers asked in turn. A part's right answer is a
function of the variant's numbers that calls ``grader.quiz.truth`` (the hidden checks' ground
truth); no right answer is written here. After a part the learner sees right or wrong and this
variant's value; after the question, the course's 答案 (quoted verbatim) with an English rendering
and where to re-read.

C questions are interviews: every part belongs to one of the course's answer key points
("答案要点", ``point=1..5``) or is a follow-up direction ("追问方向", ``followup=True``); the key
points are not shown before they are asked.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from grader.i18n import _
from grader.quiz.answers import Answer, Choice, MultiSelect, Number, Option, Tolerance


def named(key: str, en: str, zh: str) -> Option:
    """An option that is a run record's item or a part of the training state (``key`` as the checks
    name it, "data_version" or "data version"), named by meaning as the checks name it: every phrase
    of the shared vocabulary (grader/checks/truth/meaning.py) is its name, 随机种子 and 代码版本 too;
    a name of a group ("AdamW 两个矩", "m and v") means the group's parts (a tuple of keys).
    Any other key: a plain option (a list of options drawn from keys may hold both)."""
    from grader.quiz import truth as T

    item = key.replace(" ", "_")
    if item not in T.TRAINABLE_PARTS and item.replace("_", " ") not in T.record_items():
        return Option(key, en, zh)
    matcher = T.state_part if item in T.TRAINABLE_PARTS else T.record_item

    def means(text: str) -> str | tuple[str, ...] | None:
        got = matcher(text)
        if got is None:
            return None
        if got.replace(" ", "_") == item:
            return key
        group = T.members(got)  # "AdamW 两个矩": the parts it names, both moments
        return group if len(group) > 1 else got

    return Option(key, en, zh, also=T.phrases(key), means=means)


PART_NAMES = {  # the six parts of the series, as the quiz's choices name them
    1: ("part 1: Python", "第一篇：Python 使用层"),
    2: ("part 2: NumPy / Pandas / Matplotlib", "第二篇：科学计算栈"),
    3: ("part 3: the training loop", "第三篇：PyTorch 使用层（上）"),
    4: ("part 4: memory, mixed precision, multi-GPU", "第四篇：PyTorch 使用层（下）"),
    5: ("part 5: Hugging Face", "第五篇：Hugging Face 生态"),
    6: ("part 6: GPU intuition and experiment management", "第六篇：GPU 直觉与实验管理"),
}
PART_OPTIONS = [Option(str(n), en, zh) for n, (en, zh) in PART_NAMES.items()]
# a ci95 half-width of an accuracy, in the course's percentage points ("±5.8"), within 0.2 of them
CI95_HALF_WIDTH = Number("fraction", "%", Tolerance(abs=0.002), points=True)


_SIDE_TRIES = 64  # a question with one variant (a fixed fact) keeps it on both sides


def _side(params: dict) -> int:
    """Which side of the variant space (graded 1, practice 0) these numbers belong to."""
    digest = hashlib.sha256(json.dumps(params, sort_keys=True, default=repr).encode()).digest()
    return digest[0] & 1


@dataclass
class Part:
    id: str
    en: str  # the sub-question, a template filled from the variant's view
    zh: str
    answer: Answer | Callable[[dict], Answer]
    truth: Callable[[dict], Any]  # the variant's right answer, from grader.quiz.truth
    when: Callable[[dict], bool] | None = None  # asked only for variants where this holds
    point: int | None = None  # C: the course key point (1-based) this sub-question asks
    followup: bool = False  # C: a follow-up direction (can-teach)
    how: Callable[[dict, Any], tuple[str, str]] | None = None  # (en, zh) how this variant's value comes out
    quote: tuple[str, str] | None = None  # C: (zh verbatim, en) the course's words for this point
    shuffle: bool = True  # choices: options in a per-variant order

    def answer_for(self, params: dict, seed: int) -> Answer:
        ans = self.answer(params) if callable(self.answer) and not isinstance(self.answer, Answer) else self.answer
        if isinstance(ans, Choice) and self.shuffle and type(ans).__name__ != "Ordering":
            ans = ans.shuffled(random.Random(f"{seed}:{self.id}"))
        elif type(ans).__name__ == "Ordering":
            ans = ans.shuffled(random.Random(f"{seed}:{self.id}"))
        return ans

    def applies(self, params: dict) -> bool:
        return self.when is None or bool(self.when(params))


@dataclass
class Question:
    id: str
    set: str
    title: str
    zh: str  # the course's question, verbatim, its numbers as {fields}
    en: str
    draw: Callable[[random.Random], dict]
    parts: Sequence[Part]
    answer_zh: str  # the course's 答案, verbatim (R: the must-remember line)
    answer_en: str
    reread: tuple[str, str]  # (en, zh)
    course: dict | None = None  # the course's own numbers: zh.format(**view(course)) is the course's text
    view: Callable[[dict], dict] | None = None  # params -> the template's fields (premises via truth)
    draws_on: tuple[int, ...] = ()  # B: the parts of the course the 答案 draws on
    points: Sequence[tuple[str, str]] = ()  # C: the key points (zh verbatim, en)
    followups: tuple[str, str] | None = None  # C: the follow-up directions (zh verbatim, en)
    good: tuple[str, str] | None = None  # C: what makes a good answer (zh verbatim, en)
    all_parts: list[Part] = field(default_factory=list, init=False)

    def __post_init__(self):
        self.all_parts = list(self.parts)
        if self.draws_on:
            self.all_parts.append(
                Part(
                    "draws_on",
                    "Which parts of the course does the answer draw on?",
                    "这道题的答案用到了哪几篇？",
                    MultiSelect(PART_OPTIONS),
                    lambda p, parts=self.draws_on: frozenset(str(n) for n in parts),
                    shuffle=False,
                )
            )
        ids = [p.id for p in self.all_parts]
        if len(set(ids)) != len(ids):
            raise ValueError(f"{self.id}: duplicate part ids {ids}")

    @property
    def interview(self) -> bool:
        return self.set == "C"

    def part(self, part_id: str) -> Part:
        for p in self.all_parts:
            if p.id == part_id:
                return p
        raise KeyError(f"{self.id} has no part {part_id!r}")

    def variant(self, seed: int) -> Variant:
        """The variant of ``seed``. Graded seeds are odd, practice seeds even (store.py), and a
        variant's numbers fall on its seed's side: where a question has few distinct variants,
        practice (``--seed``) can never show a graded variant's numbers and answers."""
        rng = random.Random(seed)
        params = self.draw(rng)
        for _try in range(_SIDE_TRIES):
            if _side(params) == seed & 1:
                break
            params = self.draw(rng)  # the same stream: a seed still names one variant
        return Variant(self, seed, params)

    def course_variant(self) -> Variant:
        if self.course is None:
            raise ValueError(f"{self.id} has no course numbers")
        return Variant(self, 0, dict(self.course))

    def units(self) -> list[str]:
        """What mastery is counted on: the question (R, A, B) or each sub-question (C)."""
        return [f"{self.id}.{p.id}" for p in self.all_parts] if self.interview else [self.id]

    def key_point_of(self, part: Part) -> str:
        return f"{self.id}.f" if part.followup else f"{self.id}.p{part.point}"


class Variant:
    """One draw of a question's numbers. Right answers are computed on first use and kept."""

    def __init__(self, question: Question, seed: int, params: dict):
        self.question, self.seed, self.params = question, seed, params
        self._truth: dict[str, Any] = {}
        self._view: dict | None = None
        self._answers: dict[str, Answer] = {}
        self._parts: list[Part] | None = None

    def view(self) -> dict:
        if self._view is None:
            self._view = dict(self.params)
            if self.question.view is not None:
                self._view.update(self.question.view(self.params))
        return self._view

    def text(self, lang: str) -> str:
        q = self.question
        return (q.zh if lang == "zh" else q.en).format(**self.view())

    def parts(self) -> list[Part]:
        if self._parts is None:
            self._parts = [p for p in self.question.all_parts if p.applies(self.params)]
        return self._parts

    def prompt(self, part: Part, lang: str) -> str:
        return (part.zh if lang == "zh" else part.en).format(**self.view())

    def answer(self, part: Part) -> Answer:
        if part.id not in self._answers:
            self._answers[part.id] = part.answer_for(self.params, self.seed)
        return self._answers[part.id]

    def prepare(self) -> None:
        """The question's text and every sub-answer's form (options, tolerance), before it is shown."""
        self.view()
        for p in self.parts():
            self.answer(p)

    def truth(self, part: Part) -> Any:
        if part.id not in self._truth:
            self._truth[part.id] = part.truth(self.params)
        return self._truth[part.id]

    def how(self, part: Part, lang: str) -> str | None:
        if part.how is None:
            return None
        en, zh = part.how(self.params, self.truth(part))
        return zh if lang == "zh" else en

    def compute_all(self) -> None:
        """Every right answer of this variant (run in the background while the learner reads)."""
        self.view()
        for p in self.parts():
            self.truth(p)


def variant_seed(base_seed: int, question_id: str, attempt: int) -> int:
    """A variant's seed: one learner's attempt k at a question; two learners differ, a learner resumes."""
    digest = hashlib.sha256(f"{base_seed}:{question_id}:{attempt}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


# ------------------------------------------------------------------ the registry
def _load() -> dict[str, Question]:
    from grader.quiz.bank import a, b, c, r

    out: dict[str, Question] = {}
    for module in (r, a, b, c):
        for q in module.QUESTIONS:
            if q.id in out:
                raise ValueError(f"duplicate question {q.id}")
            out[q.id] = q
    return out


_BANK: dict[str, Question] | None = None


def bank() -> dict[str, Question]:
    global _BANK
    if _BANK is None:
        _BANK = _load()
    return _BANK


def questions(set_id: str | None = None) -> list[Question]:
    return [q for q in bank().values() if set_id is None or q.set == set_id]


def get(question_id: str) -> Question:
    key = question_id.strip().upper()
    if key.startswith("R-"):
        key = "R." + key[2:]
    for qid, q in bank().items():
        if qid.upper() == key:
            return q
    raise KeyError(_("no quiz question {id!r}; sets R, A, B, C, ids like A6, C1, R.ridge_point", id=question_id))
