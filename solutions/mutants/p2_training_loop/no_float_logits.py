"""Drops .float(): cross-entropy on the bf16 logits, outside autocast, so the softmax and the
loss are computed in bf16 (~3 significant digits) (part 3 addition 2)."""

import torch.nn.functional as F

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("loss_value",)


def _cross_entropy_in_logits_dtype(logits, y):
    return F.cross_entropy(logits.view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)


reference.masked_cross_entropy = _cross_entropy_in_logits_dtype
