"""Judges the curve by comparisons alone (``x > 5 * median``), with no test for non-finite values:
every comparison with NaN is False, so a NaN gradient norm passes as healthy.

The fast-fail check karpathy/autoresearch PR #84 fixed ("``train_loss_f > 100`` silently passes on
NaN because IEEE 754 NaN comparisons always return False"), and the NaN gradients epfLLM/Megatron-LLM
PR #34 found undetected ("adds a ``isfinite()`` check to the ``grad_norm`` returned by
``clip_grad_norm()``").
"""

import statistics

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("grad_norm_curve",)
MISCONCEPTION = "test only x > 5 x median: any comparison with NaN is False, so test for non-finite values first"


def grad_norm_healthy(grad_norms):
    median = statistics.median(grad_norms)
    return not any(x > 5 * median for x in grad_norms[5:])
