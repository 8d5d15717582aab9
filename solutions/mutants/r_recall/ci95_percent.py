"""Returns percentage points (x100) where the stub asks for a fraction."""

import math

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ci95",)


def ci95_half_width(p, n):
    return 100 * 1.96 * math.sqrt(p * (1 - p) / n)
