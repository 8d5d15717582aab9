"""Drops autocast: the forward always runs in fp32, whatever amp_dtype says (part 3 addition 1)."""

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("amp_step",)

reference.forward_logits = lambda model, x, amp_dtype=None: model(x)
