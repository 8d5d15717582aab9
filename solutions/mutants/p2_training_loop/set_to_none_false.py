"""zero_grad(set_to_none=False): gradients are kept as zero tensors, one extra memory write per
step and the memory stays allocated (part 3: set_to_none=True saves a write)."""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("grads_after_step",)

reference.clear_gradients = lambda optimizer: optimizer.zero_grad(set_to_none=False)
