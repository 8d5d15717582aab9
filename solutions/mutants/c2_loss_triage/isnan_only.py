"""Tests for NaN only (``math.isnan``), not for every non-finite value: an infinite gradient norm in
the first steps (an fp16 overflow), where the spike rule does not look, passes as healthy.

The NaN detector inferno-pytorch/inferno PR #119 widened ("Use isfinite instead of isnan ... to catch
NaN, +Inf, and -Inf instead of just NaN"), and the ``IsNaN`` stopping criterion of BRML/climin PR #32
(the reviewer: "What about IsNonFinite ... That might capture more problems, or capture some
earlier").
"""

import math
import statistics

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("grad_norm_curve",)
MISCONCEPTION = "test for NaN only: an infinite norm is not finite either (math.isfinite, not math.isnan)"


def grad_norm_healthy(grad_norms):
    if any(math.isnan(x) for x in grad_norms):
        return False
    median = statistics.median(grad_norms)
    return not any(x > 5 * median for x in grad_norms[5:])
