"""Uses 1.645 (a one-sided 95% / two-sided 90% quantile) instead of 1.96."""

import math

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ci95",)


def ci95_half_width(p, n):
    return 1.645 * math.sqrt(p * (1 - p) / n)
