"""Misconception (part 7, §四): "autocast makes the parameters bf16, so cast the model".

Converts the model to bf16 instead of using autocast: the master weights lose their fp32
precision (1 + 1e-5 == 1 in bf16), though the matmul outputs are bf16 as with autocast.
"""

import torch
import torch.nn.functional as F

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("uses_autocast",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    if amp_dtype is not None:
        model.to(amp_dtype)
    logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
