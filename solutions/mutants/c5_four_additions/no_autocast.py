"""P2's mutant `no_autocast` as the C5 answer: Drops autocast: the forward always runs in fp32, whatever amp_dtype says
(part 3 addition 1)."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.no_autocast import *  # noqa: F403

KILLED_BY = ("amp_step",)
