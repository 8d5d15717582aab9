"""Draws every band as mean +- 1 std whatever the convention asked: part 2's own example (5 seeds,
means 0.30 apart, std 0.179, 「两条阴影带后期不重叠才算差别」) then overlaps, and a +-2 std or a
standard-error band is read wrong (issue 23: the check itself once did this)."""

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import seed_summary

KILLED_BY = ("seeds",)


def bands_overlap(a, b, k=1.0, spread="std"):
    (ma, sa), (mb, sb) = seed_summary(a), seed_summary(b)
    return ma - sa <= mb + sb and mb - sb <= ma + sa
