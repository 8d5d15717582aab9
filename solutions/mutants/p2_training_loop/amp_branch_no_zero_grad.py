"""Clears the gradients only on the fp32 path: under bf16 autocast every step after the first
adds the previous steps' gradients to its own.

From facebookresearch/nwm issue #16, "Missing opt.zero_grad() when bfloat16 is enabled causes
silent gradient accumulation" (the train step zeroed the gradients only when bfloat16 was off).
The first bf16 step is right; only the bf16 path's second step shows it.
"""

import torch

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("grads_after_step",)
MISCONCEPTION = "clear the gradients only on the fp32 path: the bf16 path's second step adds the first step's gradient"


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    loss = reference.forward_loss(model, x, y, amp_dtype)
    loss.backward()
    grad_norm = reference.clip_gradients(model)
    optimizer.step()
    scheduler.step()
    if amp_dtype is None:
        optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
