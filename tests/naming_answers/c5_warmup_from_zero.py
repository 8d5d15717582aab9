"""Warms up from 0: lr = max_lr * step / warmup_steps, one step behind torch's LinearLR, which the
stub's step counts from 0 (「the first step uses lr_at(0)」); huggingface/transformers' get_linear_schedule_with_warmup
(lr 0 at step 0) is the other convention."""

import math

from solutions.c5_four_additions import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C5", ("learning_rates",), "shifts the warmup by one step"


def lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step >= total_steps:
        return min_lr
    t = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + (max_lr - min_lr) * (1 + math.cos(math.pi * t)) / 2
