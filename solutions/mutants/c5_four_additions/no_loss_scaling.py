"""Accumulates without dividing each micro-batch loss by k: the gradient is k times the mean
(clipping hides part of it, not all: the direction stays, the pre-clip norm is k x)."""

import torch
import torch.nn.functional as F

from solutions.c5_four_additions import *  # noqa: F403

KILLED_BY = ("accumulated_step",)


def train_step_accumulated(model, optimizer, scheduler, micro_batches, amp_dtype=None):
    total = 0.0
    for x, y in micro_batches:
        logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
        loss.backward()
        total += loss.item()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": total / len(micro_batches), "grad_norm": float(grad_norm)}
