"""P2's mutant `amp_branch_no_zero_grad` as the C5 answer: clears the gradients only on the fp32
path, so under bf16 autocast every step after the first adds the previous steps' gradients.

facebookresearch/nwm issue #16, "Missing opt.zero_grad() when bfloat16 is enabled causes silent
gradient accumulation". C5 reads it only when two bf16 steps run without the driver clearing .grad
in between (grader/checks/truth/training_loop.py: expect_own_gradients).
"""

from solutions.c5_four_additions import *  # noqa: F403
from solutions.mutants.p2_training_loop.amp_branch_no_zero_grad import *  # noqa: F403

KILLED_BY = ("step_gradient",)
