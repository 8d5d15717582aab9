"""Drops autocast: the forward always runs in fp32, whatever amp_dtype says (part 3 addition 1)."""

import torch
import torch.nn.functional as F

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("uses_autocast",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
