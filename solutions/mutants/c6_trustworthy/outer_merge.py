"""Counts a question missing from one table as changed (an outer merge with missing = wrong)."""

from solutions.c6_trustworthy import *  # noqa: F403

KILLED_BY = ("per_question_diff",)


def changed_questions(results_a, results_b):
    a, b = dict(results_a), dict(results_b)
    every = a.keys() | b.keys()
    return {
        "improved": sorted(q for q in every if not a.get(q, False) and b.get(q, False)),
        "degraded": sorted(q for q in every if a.get(q, False) and not b.get(q, False)),
    }
