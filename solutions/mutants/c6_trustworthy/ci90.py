"""Uses 1.645 (a 90% interval) instead of 1.96."""

import math

from solutions.c6_trustworthy import *  # noqa: F403

KILLED_BY = ("ci95",)


def ci95_half_width(p, n):
    return 1.645 * math.sqrt(p * (1 - p) / n)
