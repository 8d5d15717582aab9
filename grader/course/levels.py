"""Aggregate key-point outcomes into set scores, the pass line and the mastery level.

Part 7, section 五.D, as CATALOG.md turns it into rules:

* read       R: at least 80% of the recall items.
* mastered   read, A >= 8 of 10, B >= 4 of 5, every C question >= half its key points,
             P1-P4 pass.
* can-teach  mastered, every C key point including the follow-ups, P5, all of X.
* pass line  (通关标准, reported on its own) A >= 8, B >= 4, every C >= half its key points.

Two sources (issue 15). The course's criteria for reading and answering are closed-book ("不翻书");
with the quiz's counts (:class:`QuizCounts`, from ``grader.quiz.progress``) :func:`summarize` takes
them from the quiz and the "has done it" criteria from the code:

* read       the R quiz: at least 80% of the items mastered;
* mastered   read; in the quiz A >= 8 of 10 and B >= 4 of 5 mastered and every C question >= half
             its key points; in code P1-P4 pass;
* can-teach  mastered; in the quiz every C key point and follow-up; in code P5, all of X, and the
             A, B and C code exercises pass (C with its follow-ups): "六个脚本改过参数、看过数字怎么变".
* pass line  from the quiz (the course's self-test is answered, not coded); the code's is kept too.

Without quiz counts (``quiz=None``, as the classroom counts its gradebook) every criterion comes
from the code, as listed above.

The pass line is the course's count, not a fraction: "A >= 8" certifies 8 of the course's 10 A
questions, so sets R, A, B and C are closed (the course's self-test, which the quiz mirrors). A
catalog or quiz whose count of them differs from the course's raises :class:`ClosedSetChanged`,
saying why, rather than give a level the course never defined (docs/maintaining.md). Only the
shares the rules are written in stay shares: half of each C question's key points (the course's
words) and 80% of R's items (CATALOG.md's; the course gives R no count).

An outcome maps exercise id -> key point id -> True (passed), False, or None (not verifiable
on this machine: left out of every count). An exercise absent from the mapping (not
available yet, or not graded) counts as not passed. A question of A, B, P or X passes when
every verifiable key point of it passes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from grader.course import catalog
from grader.i18n import N_, Message, _

Outcomes = Mapping[str, Mapping[str, "bool | None"]]

LEVELS = ("none", "read", "mastered", "can-teach")
# The levels' names as shown (part 7, §五.D's table names 读过 / 掌握 / 能教人).
# English shows the ids themselves (the report and levels.csv have always said them so)
LEVEL_NAMES = {"none": N_("none"), "read": N_("read"), "mastered": N_("mastered"), "can-teach": N_("can-teach")}
SOURCE_NAMES = {"quiz": N_("quiz"), "code": N_("code")}
# Part 7 (第七篇), verbatim: its self-test's sets and its pass line. The counts below are read from
# these lines, so the numbers live in one place, the course's words (tests/test_levels.py finds
# both lines in the course text).
SELF_TEST = "通关自测：A 判断与计算 10 题、B 跨篇综合 5 题、C 面试题 7 题"
PASS_LINE_TEXT = "通关标准：A 组至少 8 题、B 组至少 4 题、C 组每题能说出一半以上要点。"
COURSE_QUESTIONS = {s: int(n) for s, n in re.findall(r"([ABC]) \S+ (\d+) 题", SELF_TEST)}  # A 10, B 5, C 7
PASS_LINE = {s: int(n) for s, n in re.findall(r"([AB]) 组至少 (\d+) 题", PASS_LINE_TEXT)}  # A 8, B 4
C_SHARE = Fraction(1, 2)  # of each C question's key points: 「一半以上」, half or more
# R: CATALOG.md's "the R quiz >= 80%" of its 12 recall items (the course names the terms, no count).
R_ITEMS, R_SHARE = 12, Fraction(8, 10)
MASTERED_P = ("P1", "P2", "P3", "P4")
MUST_PASS = N_("{id} must pass")
# pass_line's values in every class CSV (levels.csv of grader batch, mastery.csv): one vocabulary, said
# in the reader's language where a person reads it (the terminal, the pages)
PASS_LINE_VALUES = {True: N_("met"), False: N_("not met")}
RECALL_NEEDS = (
    N_("R: {got}/{total} recall items, need {need}"),
    N_("R: {got}/{total} items mastered in the quiz, need {need}"),
)


def level_text(level: str) -> str:
    """A level's name (one of LEVELS) in the current language."""
    return _(LEVEL_NAMES[level])


class ClosedSetChanged(RuntimeError):
    """A set of the course's closed self-test (R, A, B, C) has more or fewer questions than the course."""


def closed(set_id: str, count: int, where: str) -> None:
    """Refuse a count of set ``set_id`` (questions; R: items) that is not the course's, saying why."""
    course = R_ITEMS if set_id == "R" else COURSE_QUESTIONS[set_id]
    if count != course:
        unit = "recall items" if set_id == "R" else "questions"
        raise ClosedSetChanged(
            f"set {set_id} has {count} {unit} in {where}, the course's self-test has {course}. Sets R, A, B "
            f"and C are the course's closed self-test (part 7: 「{SELF_TEST}」; 「{PASS_LINE_TEXT}」): the pass "
            "line counts the course's own questions, so adding or removing one would change what the levels "
            "certify. Put a new exercise in set P or X, or, if the course itself changed, change SELF_TEST, "
            "PASS_LINE_TEXT or R_ITEMS in grader/course/levels.py from its text (docs/maintaining.md, "
            '"The closed sets").'
        )


def needed(set_id: str, total: int) -> int:
    """How many of ``total`` the course asks for: A or B questions (``total`` must be the course's
    count), one C question's key points, or R's items."""
    if set_id in PASS_LINE:
        closed(set_id, total, "the total given to needed()")
        return PASS_LINE[set_id]
    return math.ceil((C_SHARE if set_id == "C" else R_SHARE) * total)


def need_set(need: Message) -> str:
    """The set a next-level need (one of :attr:`Summary.next_level_messages`) is about."""
    fields = dict(need.fields)
    if isinstance(fields.get("need"), Message):  # "[quiz] ...": the need it wraps
        return need_set(fields["need"])
    if need.msgid in RECALL_NEEDS:
        return "R"
    return str(fields["set"]) if "set" in fields else catalog.get(str(fields["id"])).set


def by_set() -> dict[str, list[catalog.Exercise]]:
    """The catalog's exercises per set, in catalog order."""
    return {s: [ex for ex in catalog.CATALOG if ex.set == s] for s in catalog.SETS}


def _counted(ex: catalog.Exercise, outcome: Mapping[str, bool | None], followups: bool) -> tuple[int, int]:
    """(passed, total) over the verifiable key points; follow-ups only if asked."""
    passed = total = 0
    for kp in ex.key_points:
        if kp.followup and not followups:
            continue
        result = outcome.get(kp.id, False)
        if result is None:
            continue
        total += 1
        passed += result is True
    return passed, total


def question_passed(ex: catalog.Exercise, outcomes: Outcomes, followups: bool = True) -> bool:
    if ex.id not in outcomes:
        return False
    passed, total = _counted(ex, outcomes[ex.id], followups)
    return total > 0 and passed == total


@dataclass(frozen=True)
class QuizCounts:
    """The closed-book side: what the quiz counts as mastered (grader.quiz.progress)."""

    r: tuple[int, int]  # R items mastered / items
    a: tuple[int, int]  # A questions mastered / questions
    b: tuple[int, int]
    c_points: Mapping[str, tuple[int, int]]  # C id -> key points mastered / key points
    c_all: Mapping[str, tuple[int, int]]  # the same with the follow-ups
    learner: str = ""
    answers: int = 0
    source: str = ""  # the learner's own attempts file the counts come from (self-study: editable)

    def to_dict(self) -> dict:
        return {
            "learner": self.learner,
            "answers": self.answers,
            "source": self.source,
            "R": f"{self.r[0]}/{self.r[1]}",
            "A": f"{self.a[0]}/{self.a[1]}",
            "B": f"{self.b[0]}/{self.b[1]}",
            "C": {k: f"{p}/{t}" for k, (p, t) in self.c_points.items()},
            "C_with_followups": {k: f"{p}/{t}" for k, (p, t) in self.c_all.items()},
        }


@dataclass(frozen=True)
class Criterion:
    level: str  # the level it belongs to
    source: str  # "quiz" or "code"
    message: Message
    met: bool

    @property
    def text(self) -> str:
        """The criterion in English."""
        return str(self.message)

    def shown(self) -> str:
        """The criterion in the current language."""
        return self.message.text()

    def to_dict(self) -> dict:
        return {"level": self.level, "source": self.source, "criterion": self.text, "met": self.met}


@dataclass
class Summary:
    level: str
    pass_line: bool
    r_passed: int
    r_total: int
    a_passed: int
    b_passed: int
    c_points: dict[str, tuple[int, int]]  # C id -> (key points passed, total), follow-ups excluded
    c_all_points: dict[str, tuple[int, int]]  # the same with follow-ups
    sets: dict[str, tuple[int, int]]  # set -> (questions passed, questions in the catalog)
    needed: dict[str, int]  # R, A, B -> items or questions the course asks for
    next_level_messages: list[Message] = field(default_factory=list)  # what the next level still needs
    quiz: QuizCounts | None = None  # the closed-book source, when the quiz is counted
    criteria: list[Criterion] = field(default_factory=list)  # every criterion of every level, with its source
    code_level: str = ""  # the level counted from the code alone (the classroom's counting)
    code_pass_line: bool = False  # the pass line counted from the code exercises
    pass_line_sets: dict[str, bool] = field(default_factory=dict)  # A, B, C -> its part of the code's pass line

    @property
    def next_level_needs(self) -> list[str]:
        """What the next level still needs, in English."""
        return [str(m) for m in self.next_level_messages]

    def next_level_needs_text(self) -> list[str]:
        """What the next level still needs, in the current language."""
        return [m.text() for m in self.next_level_messages]

    def row(self) -> dict:
        """The columns of a class CSV (``grader batch``, ``grader classroom mastery``)."""
        return {
            "level": self.level,
            "pass_line": PASS_LINE_VALUES[self.pass_line],
            "R": f"{self.r_passed}/{self.r_total}",
            "A": self.a_passed,
            "B": self.b_passed,
            **{cid: f"{p}/{t}" for cid, (p, t) in self.c_points.items()},
        }

    def to_dict(self) -> dict:
        return {
            "level": self.level,
            "pass_line": self.pass_line,
            "R": f"{self.r_passed}/{self.r_total}",
            "A": self.a_passed,
            "B": self.b_passed,
            "C": {k: f"{p}/{t}" for k, (p, t) in self.c_points.items()},
            "C_with_followups": {k: f"{p}/{t}" for k, (p, t) in self.c_all_points.items()},
            "sets": {k: f"{p}/{t}" for k, (p, t) in self.sets.items()},
            "needed": self.needed,
            "next_level_needs": self.next_level_needs,
            "level_sources": "quiz (closed book) + code" if self.quiz is not None else "code",
            "code_level": self.code_level,
            "code_pass_line": self.code_pass_line,
            "quiz": self.quiz.to_dict() if self.quiz is not None else None,
            "criteria": [c.to_dict() for c in self.criteria],
        }


def summarize(outcomes: Outcomes, quiz: QuizCounts | None = None) -> Summary:
    """The level from the code's outcomes alone (``quiz=None``) or with the quiz as the closed-book source."""
    code = _summarize_code(outcomes)
    code.code_level, code.code_pass_line = code.level, code.pass_line
    if quiz is None:
        return code
    return with_quiz(code, outcomes, quiz)


def with_quiz(code: Summary, outcomes: Outcomes, quiz: QuizCounts) -> Summary:
    """Levels whose closed-book criteria come from the quiz, the rest from the code (module docstring)."""
    sets_of = by_set()
    for s, count in (("R", quiz.r[1]), ("A", quiz.a[1]), ("B", quiz.b[1]), ("C", len(quiz.c_points))):
        closed(s, count, "the quiz")
    crit: list[Criterion] = []

    def add(level, source, msgid, met, **fields):
        crit.append(Criterion(level, source, Message.of(msgid, **fields), bool(met)))

    need_r = needed("R", quiz.r[1])
    add(
        "read",
        "quiz",
        RECALL_NEEDS[1],
        quiz.r[1] > 0 and quiz.r[0] >= need_r,
        got=quiz.r[0],
        total=quiz.r[1],
        need=need_r,
    )
    for s, (got, total) in (("A", quiz.a), ("B", quiz.b)):
        add(
            "mastered",
            "quiz",
            N_("{set}: {got}/{total} questions mastered in the quiz, need {need}"),
            total > 0 and got >= needed(s, total),
            set=s,
            got=got,
            total=total,
            need=needed(s, total),
        )
    for cid, (p, t) in quiz.c_points.items():
        add(
            "mastered",
            "quiz",
            N_("{id}: {got}/{total} key points in the quiz, need {need}"),
            t > 0 and p >= needed("C", t),
            id=cid,
            got=p,
            total=t,
            need=needed("C", t),
        )
    for pid in MASTERED_P:
        add("mastered", "code", MUST_PASS, question_passed(catalog.BY_ID[pid], outcomes), id=pid)
    for cid, (p, t) in quiz.c_all.items():
        add(
            "can-teach",
            "quiz",
            N_("{id}: {got}/{total} key points and follow-ups in the quiz, need all"),
            t > 0 and p == t,
            id=cid,
            got=p,
            total=t,
        )
    add("can-teach", "code", MUST_PASS, question_passed(catalog.BY_ID["P5"], outcomes), id="P5")
    for ex in sets_of["X"]:
        add("can-teach", "code", MUST_PASS, question_passed(ex, outcomes), id=ex.id)
    for s in ("A", "B", "C"):
        for ex in sets_of[s]:  # C with its follow-ups: the code exercise done in full
            add("can-teach", "code", N_("{id} must pass (code exercise)"), question_passed(ex, outcomes), id=ex.id)

    level = "none"
    for name in LEVELS[1:]:
        if all(c.met for c in crit if LEVELS.index(c.level) <= LEVELS.index(name)):
            level = name
        else:
            break
    nxt = LEVELS[min(LEVELS.index(level) + 1, len(LEVELS) - 1)]
    needs = (
        [
            Message.of(N_("[{source}] {need}"), source=Message.of(SOURCE_NAMES[c.source]), need=c.message)
            for c in crit
            if c.level == nxt and not c.met
        ]
        if level != LEVELS[-1]
        else []
    )
    pass_line = (
        quiz.a[1] > 0
        and quiz.a[0] >= needed("A", quiz.a[1])
        and quiz.b[1] > 0
        and quiz.b[0] >= needed("B", quiz.b[1])
        and all(t > 0 and p >= needed("C", t) for p, t in quiz.c_points.values())
    )
    code.level, code.pass_line, code.next_level_messages = level, pass_line, needs
    code.quiz, code.criteria = quiz, crit
    return code


def _summarize_code(outcomes: Outcomes) -> Summary:
    sets_of = by_set()
    (r_ex,) = sets_of["R"]
    closed("R", len(r_ex.key_points), "the catalog")
    for s in COURSE_QUESTIONS:
        closed(s, len(sets_of[s]), "the catalog")
    r_passed, r_total = _counted(r_ex, outcomes.get(r_ex.id, {}), followups=True)
    if r_ex.id not in outcomes:
        r_passed = 0
    a_passed = sum(question_passed(ex, outcomes) for ex in sets_of["A"])
    b_passed = sum(question_passed(ex, outcomes) for ex in sets_of["B"])
    c_points, c_all = {}, {}
    for ex in sets_of["C"]:
        got = outcomes.get(ex.id)
        c_points[ex.id] = _counted(ex, got, False) if got is not None else (0, _counted(ex, {}, False)[1])
        c_all[ex.id] = _counted(ex, got, True) if got is not None else (0, _counted(ex, {}, True)[1])
    sets = {s: (sum(question_passed(ex, outcomes) for ex in exs), len(exs)) for s, exs in sets_of.items()}
    sets["R"] = (r_passed, r_total)  # R is one sheet: counted in items
    need = {s: needed(s, sets[s][1]) for s in ("R", "A", "B")}

    read = r_total > 0 and r_passed >= need["R"]
    c_half = all(t > 0 and p >= needed("C", t) for p, t in c_points.values())
    pass_line_sets = {"A": a_passed >= need["A"], "B": b_passed >= need["B"], "C": c_half}
    pass_line = all(pass_line_sets.values())
    p_mastered = all(question_passed(catalog.BY_ID[p], outcomes) for p in MASTERED_P)
    mastered = read and pass_line and p_mastered
    c_full = all(t > 0 and p == t for p, t in c_all.values())
    x_all = all(question_passed(ex, outcomes) for ex in sets_of["X"])
    can_teach = mastered and c_full and question_passed(catalog.BY_ID["P5"], outcomes) and x_all

    level = "can-teach" if can_teach else "mastered" if mastered else "read" if read else "none"
    needs: list[Message] = []
    if not read:
        needs.append(Message.of(RECALL_NEEDS[0], got=r_passed, total=r_total, need=need["R"]))
    elif not mastered:
        for s in ("A", "B"):
            if sets[s][0] < need[s]:
                needs.append(
                    Message.of(
                        N_("{set}: {got}/{total} questions, need {need}"),
                        set=s,
                        got=sets[s][0],
                        total=sets[s][1],
                        need=need[s],
                    )
                )
        for cid, (p, t) in c_points.items():
            if not (t > 0 and p >= needed("C", t)):
                needs.append(
                    Message.of(
                        N_("{id}: {got}/{total} key points, need {need}"), id=cid, got=p, total=t, need=needed("C", t)
                    )
                )
        needs += [Message.of(MUST_PASS, id=p) for p in MASTERED_P if not question_passed(catalog.BY_ID[p], outcomes)]
    elif not can_teach:
        needs += [
            Message.of(N_("{id}: {got}/{total} key points incl. follow-ups, need all"), id=cid, got=p, total=t)
            for cid, (p, t) in c_all.items()
            if p != t
        ]
        if not question_passed(catalog.BY_ID["P5"], outcomes):
            needs.append(Message.of(MUST_PASS, id="P5"))
        needs += [Message.of(MUST_PASS, id=ex.id) for ex in sets_of["X"] if not question_passed(ex, outcomes)]
    return Summary(
        level,
        pass_line,
        r_passed,
        r_total,
        a_passed,
        b_passed,
        c_points,
        c_all,
        sets,
        need,
        needs,
        pass_line_sets=pass_line_sets,
    )
