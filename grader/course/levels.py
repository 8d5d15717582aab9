"""Aggregate key-point outcomes into set scores, the pass line and the mastery level.

Part 7, section 五.D, as CATALOG.md turns it into rules:

* read       R: at least 80% of the recall items.
* mastered   read, A >= 8 of 10, B >= 4 of 5, every C question >= half its key points,
             P1-P4 pass.
* can-teach  mastered, every C key point including the follow-ups, P5, all of X.
* pass line  (通关标准, reported on its own) A >= 8, B >= 4, every C >= half its key points.

An outcome maps exercise id -> key point id -> True (passed), False, or None (not verifiable
on this machine: left out of every count). An exercise absent from the mapping (not
available yet, or not graded) counts as not passed. A question of A, B, P or X passes when
every verifiable key point of it passes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

from grader.course import catalog

Outcomes = Mapping[str, Mapping[str, "bool | None"]]

LEVELS = ("none", "read", "mastered", "can-teach")
R_THRESHOLD = 0.8
A_NEEDED, B_NEEDED = 8, 4
MASTERED_P = ("P1", "P2", "P3", "P4")


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
    next_level_needs: list[str] = field(default_factory=list)

    def row(self) -> dict:
        """The columns of a class CSV (``grader batch``, ``grader classroom mastery``)."""
        return {"level": self.level, "pass_line": self.pass_line, "R": f"{self.r_passed}/{self.r_total}",
                "A": self.a_passed, "B": self.b_passed,
                **{cid: f"{p}/{t}" for cid, (p, t) in self.c_points.items()}}

    def to_dict(self) -> dict:
        return {
            "level": self.level, "pass_line": self.pass_line,
            "R": f"{self.r_passed}/{self.r_total}", "A": self.a_passed, "B": self.b_passed,
            "C": {k: f"{p}/{t}" for k, (p, t) in self.c_points.items()},
            "C_with_followups": {k: f"{p}/{t}" for k, (p, t) in self.c_all_points.items()},
            "sets": {k: f"{p}/{t}" for k, (p, t) in self.sets.items()},
            "next_level_needs": self.next_level_needs,
        }


def summarize(outcomes: Outcomes) -> Summary:
    by_set: dict[str, list[catalog.Exercise]] = {s: [] for s in catalog.SETS}
    for ex in catalog.CATALOG:
        by_set[ex.set].append(ex)
    (r_ex,) = by_set["R"]
    r_passed, r_total = _counted(r_ex, outcomes.get(r_ex.id, {}), followups=True)
    if r_ex.id not in outcomes:
        r_passed = 0
    a_passed = sum(question_passed(ex, outcomes) for ex in by_set["A"])
    b_passed = sum(question_passed(ex, outcomes) for ex in by_set["B"])
    c_points, c_all = {}, {}
    for ex in by_set["C"]:
        got = outcomes.get(ex.id)
        c_points[ex.id] = _counted(ex, got, False) if got is not None else (0, _counted(ex, {}, False)[1])
        c_all[ex.id] = _counted(ex, got, True) if got is not None else (0, _counted(ex, {}, True)[1])
    sets = {s: (sum(question_passed(ex, outcomes) for ex in exs), len(exs)) for s, exs in by_set.items()}
    sets["R"] = (r_passed, r_total)  # R is one sheet: counted in items

    read = r_total > 0 and r_passed >= math.ceil(R_THRESHOLD * r_total - 1e-9)
    c_half = all(t > 0 and 2 * p >= t for p, t in c_points.values())
    pass_line = a_passed >= A_NEEDED and b_passed >= B_NEEDED and c_half
    p_mastered = all(question_passed(catalog.BY_ID[p], outcomes) for p in MASTERED_P)
    mastered = read and pass_line and p_mastered
    c_full = all(t > 0 and p == t for p, t in c_all.values())
    x_all = all(question_passed(ex, outcomes) for ex in by_set["X"])
    can_teach = mastered and c_full and question_passed(catalog.BY_ID["P5"], outcomes) and x_all

    level = "can-teach" if can_teach else "mastered" if mastered else "read" if read else "none"
    needs: list[str] = []
    if not read:
        needs.append(f"R: {r_passed}/{r_total} recall items, need {math.ceil(R_THRESHOLD * r_total - 1e-9)}")
    elif not mastered:
        if a_passed < A_NEEDED:
            needs.append(f"A: {a_passed}/10 questions, need {A_NEEDED}")
        if b_passed < B_NEEDED:
            needs.append(f"B: {b_passed}/5 questions, need {B_NEEDED}")
        for cid, (p, t) in c_points.items():
            if not (t > 0 and 2 * p >= t):
                needs.append(f"{cid}: {p}/{t} key points, need at least half")
        needs += [f"{p} must pass" for p in MASTERED_P if not question_passed(catalog.BY_ID[p], outcomes)]
    elif not can_teach:
        needs += [f"{cid}: {p}/{t} key points incl. follow-ups, need all" for cid, (p, t) in c_all.items() if p != t]
        if not question_passed(catalog.BY_ID["P5"], outcomes):
            needs.append("P5 must pass")
        needs += [f"{ex.id} must pass" for ex in by_set["X"] if not question_passed(ex, outcomes)]
    return Summary(level, pass_line, r_passed, r_total, a_passed, b_passed, c_points, c_all, sets, needs)
