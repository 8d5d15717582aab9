"""Returns the standard error sqrt(p(1-p)/n) as the ci95 half-width: part 7's misconception-table
row 「总分高 2 个点就是更好」 answers with 「80 道题的 ±10.9」, the 95% interval, not one standard error."""

import math

from solutions.c6_trustworthy import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C6", ("ci95",), "returns the standard error"


def ci95_half_width(p, n):
    return math.sqrt(p * (1 - p) / n)
