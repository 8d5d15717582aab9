"""Forgets the square root: 1.96 * p(1-p)/n."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ci95",)


def ci95_half_width(p, n):
    return 1.96 * p * (1 - p) / n
