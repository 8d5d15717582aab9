"""Warms up from 0: ``max_lr * step / warmup_steps``, so optimizer step 0 runs with lr 0 and the
warmup ends one step late.

What huggingface/transformers issue #34754 reports of its warmup schedulers ("warmup LR
schedulers start from LR=0": "the effective LR is 0 for the first step, unnecessarily wasting
compute"); also google-research/bert issue #1293. The stub: "step ``warmup_steps - 1`` runs
at ``max_lr`` (so step 0 is not 0)".
"""

import math

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("learning_rates",)
MISCONCEPTION = "warm up from 0 (max_lr * step / warmup_steps): step 0 runs with lr 0"


def lr_at(step, *, max_lr, min_lr, warmup_steps, total_steps):
    if step < warmup_steps:
        return max_lr * step / warmup_steps
    if step >= total_steps:
        return min_lr
    progress = (step - warmup_steps) / (total_steps - warmup_steps)
    return min_lr + 0.5 * (max_lr - min_lr) * (1 + math.cos(math.pi * progress))
