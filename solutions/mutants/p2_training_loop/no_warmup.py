"""Cosine decay from step 0 without the linear warmup: the first steps run at max_lr
(part 3: "without warmup the first steps may diverge")."""

import math

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("learning_rates",)


def lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps):
    if step >= total_steps:
        return min_lr
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * step / total_steps))
