"""Sums the cross-entropy over tokens instead of averaging: the reported first loss is
B*T times ln V, not ln V (part 3: the first loss should be ln V)."""

import torch.nn.functional as F

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("first_loss",)
MISCONCEPTION = (
    "sum the cross-entropy over the tokens instead of averaging it: the loss comes out B x T times too large"
)


def _summed_cross_entropy(logits, y):
    return F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100, reduction="sum")


reference.masked_cross_entropy = _summed_cross_entropy
