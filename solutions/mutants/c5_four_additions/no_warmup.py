"""P2's mutant `no_warmup` as the C5 answer: Cosine decay from step 0 without the linear warmup: the first steps run at
max_lr
(part 3: "without warmup the first steps may diverge")."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.no_warmup import *  # noqa: F403

KILLED_BY = ("learning_rates",)
