"""P2's mutant `no_clipping` as the C5 answer: Drops clip_grad_norm_: one bad batch's huge gradient goes straight into
the step
(part 3 addition 3). Reports the norm it would have clipped."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.no_clipping import *  # noqa: F403

KILLED_BY = ("step_gradient",)
