"""Averages the per-token loss over every position, the -100 ones included (as zeros):
``F.cross_entropy(..., reduction="none", ignore_index=-100).mean()``.

The denominator bug of PaddlePaddle/Paddle issue #23708 ("cross_entropy(ignore_index) combined
with mean gives a wrong result": the mean still counts the ignored positions) and of
PaddlePaddle/Paddle issue #48663; the loss shrinks by the fraction of masked labels.
"""

import torch.nn.functional as F

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("loss_value",)
MISCONCEPTION = "average the loss over all positions, the ignored ones included, instead of over the labelled ones"


def _mean_over_all(logits, y):
    per_token = F.cross_entropy(
        logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100, reduction="none"
    )
    return per_token.mean()


reference.masked_cross_entropy = _mean_over_all
