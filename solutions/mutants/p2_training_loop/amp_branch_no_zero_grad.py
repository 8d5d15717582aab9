"""Clears the gradients only on the fp32 path: under bf16 autocast every step after the first
adds the previous steps' gradients to its own.

From facebookresearch/nwm issue #16, "Missing opt.zero_grad() when bfloat16 is enabled causes
silent gradient accumulation" (the train step zeroed the gradients only when bfloat16 was off).
The first bf16 step is right; only the bf16 path's second step shows it.
"""

from solutions.p2_training_loop import *  # noqa: F401,F403
from solutions.mutants.p2_training_loop import _update_order

KILLED_BY = ("grads_after_step",)
MISCONCEPTION = "clear the gradients only on the fp32 path: the bf16 path's second step adds the first step's gradient"


def _clear_on_fp32_only(optimizer, scheduler, amp_dtype):
    if amp_dtype is None:
        optimizer.zero_grad(set_to_none=True)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    return _update_order.train_step(
        model,
        optimizer,
        scheduler,
        batch,
        amp_dtype,
        update=(_update_order.optimizer_step, _update_order.scheduler_step, _clear_on_fp32_only),
    )
