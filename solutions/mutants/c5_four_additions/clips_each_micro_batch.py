"""Clips the gradient after every micro-batch's backward instead of once before the step: each
partial sum is rescaled, so the step's gradient is not the clipped full-batch gradient.

The clip-inside-the-accumulation-loop pattern of huggingface/accelerate issue #641 ("Gradient
accumulation doesn't work with Accelerate's clip_grad_norm_": clip_grad_norm_ called inside the
accumulate() block on every micro-step).
"""

import torch
import torch.nn.functional as F

from solutions.c5_four_additions import *  # noqa: F403

KILLED_BY = ("accumulated_step",)
MISCONCEPTION = "clip after every micro-batch: clip once, the accumulated full-batch gradient, before the step"


def train_step_accumulated(model, optimizer, scheduler, micro_batches, amp_dtype=None):
    k = len(micro_batches)
    total, grad_norm = 0.0, 0.0
    for x, y in micro_batches:
        with torch.autocast("cpu", dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
            logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
        (loss / k).backward()
        grad_norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
        total += loss.item()
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": total / k, "grad_norm": grad_norm}
