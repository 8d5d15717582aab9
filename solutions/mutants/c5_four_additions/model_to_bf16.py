"""P2's mutant `model_to_bf16` as the C5 answer: Misconception (part 7, §四): "autocast makes the parameters bf16, so
cast the model".

Converts the model to bf16 instead of using autocast: the master weights lose their fp32
precision (1 + 1e-5 == 1 in bf16), though the matmul outputs are bf16 as with autocast."""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.model_to_bf16 import *  # noqa: F403

KILLED_BY = ("amp_step",)
