"""P2's mutant `mask_not_applied` as the C5 answer: A hand-written loss that forgets the -100 mask: -100 targets are
clamped to token 0 and
averaged in, so padding/prompt positions count as targets (part 3: ignore_index=-100 is the
SFT loss mask)."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.mask_not_applied import *  # noqa: F403

KILLED_BY = ("loss_value",)
