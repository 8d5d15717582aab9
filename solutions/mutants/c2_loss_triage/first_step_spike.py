"""Calls the large first step a spike: compares every value, the first ones included, with the median."""

import math
import statistics

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("grad_norm_curve",)


def grad_norm_healthy(grad_norms):
    if not all(math.isfinite(x) for x in grad_norms):
        return False
    return not any(x > 3 * statistics.median(grad_norms) for x in grad_norms)
