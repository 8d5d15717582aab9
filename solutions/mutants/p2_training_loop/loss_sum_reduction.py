"""Sums the cross-entropy over tokens instead of averaging: the reported first loss is
B*T times ln V, not ln V (part 3: the first loss should be ln V)."""

import torch
import torch.nn.functional as F

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("first_loss_ln_v",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100,
                           reduction="sum")
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
