"""Drops clip_grad_norm_: one bad batch's huge gradient goes straight into the step
(part 3 addition 3). Reports the norm it would have clipped."""

import torch
import torch.nn.functional as F

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("clips_grad_norm",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
    loss.backward()
    grad_norm = torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1) for p in model.parameters()]))
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
