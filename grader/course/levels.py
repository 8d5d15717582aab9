"""Aggregate key-point outcomes into set scores, the pass line and the mastery level.

Part 7, section 五.D, as CATALOG.md turns it into rules:

* read       R: at least 80% of the recall items.
* mastered   read, A >= 8 of 10, B >= 4 of 5, every C question >= half its key points,
             P1-P4 pass.
* can-teach  mastered, every C key point including the follow-ups, P5, all of X.
* pass line  (通关标准, reported on its own) A >= 8, B >= 4, every C >= half its key points.

The thresholds are kept as fractions (NEEDED) of the catalog's counts: the course wrote them
for 12 recall items, 10 A and 5 B questions; a question added to a set moves the bar with it.

An outcome maps exercise id -> key point id -> True (passed), False, or None (not verifiable
on this machine: left out of every count). An exercise absent from the mapping (not
available yet, or not graded) counts as not passed. A question of A, B, P or X passes when
every verifiable key point of it passes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Mapping

from grader.course import catalog

Outcomes = Mapping[str, Mapping[str, "bool | None"]]

LEVELS = ("none", "read", "mastered", "can-teach")
# The course's thresholds, stated once, as fractions of the catalog's counts.
NEEDED = {"R": Fraction(8, 10), "A": Fraction(8, 10), "B": Fraction(4, 5), "C": Fraction(1, 2)}
MASTERED_P = ("P1", "P2", "P3", "P4")


def needed(set_id: str, total: int) -> int:
    """How many of ``total`` (R items, A or B questions, one C question's key points) the course asks for."""
    return math.ceil(NEEDED[set_id] * total)


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
            "needed": self.needed,
            "next_level_needs": self.next_level_needs,
        }


def summarize(outcomes: Outcomes) -> Summary:
    sets_of = by_set()
    (r_ex,) = sets_of["R"]
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
    pass_line = a_passed >= need["A"] and b_passed >= need["B"] and c_half
    p_mastered = all(question_passed(catalog.BY_ID[p], outcomes) for p in MASTERED_P)
    mastered = read and pass_line and p_mastered
    c_full = all(t > 0 and p == t for p, t in c_all.values())
    x_all = all(question_passed(ex, outcomes) for ex in sets_of["X"])
    can_teach = mastered and c_full and question_passed(catalog.BY_ID["P5"], outcomes) and x_all

    level = "can-teach" if can_teach else "mastered" if mastered else "read" if read else "none"
    needs: list[str] = []
    if not read:
        needs.append(f"R: {r_passed}/{r_total} recall items, need {need['R']}")
    elif not mastered:
        for s in ("A", "B"):
            if sets[s][0] < need[s]:
                needs.append(f"{s}: {sets[s][0]}/{sets[s][1]} questions, need {need[s]}")
        for cid, (p, t) in c_points.items():
            if not (t > 0 and p >= needed("C", t)):
                needs.append(f"{cid}: {p}/{t} key points, need {needed('C', t)}")
        needs += [f"{p} must pass" for p in MASTERED_P if not question_passed(catalog.BY_ID[p], outcomes)]
    elif not can_teach:
        needs += [f"{cid}: {p}/{t} key points incl. follow-ups, need all" for cid, (p, t) in c_all.items() if p != t]
        if not question_passed(catalog.BY_ID["P5"], outcomes):
            needs.append("P5 must pass")
        needs += [f"{ex.id} must pass" for ex in sets_of["X"] if not question_passed(ex, outcomes)]
    return Summary(level, pass_line, r_passed, r_total, a_passed, b_passed, c_points, c_all, sets, need, needs)
