"""P2's mutant `no_schedule` as the C5 answer: Drops the warmup + cosine schedule: a constant max_lr from the first step
(part 3 addition 4).
``lr_at`` itself is right; the loop never uses it."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.no_schedule import *  # noqa: F403

KILLED_BY = ("learning_rates",)
