"""P2's mutant `no_float_logits` as the C5 answer: Drops .float(): cross-entropy on the bf16 logits, outside autocast,
so the softmax and the
loss are computed in bf16 (~3 significant digits) (part 3 addition 2)."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.no_float_logits import *  # noqa: F403

KILLED_BY = ("loss_value",)
