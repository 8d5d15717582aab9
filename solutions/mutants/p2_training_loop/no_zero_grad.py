"""Never clears the gradients: backward() accumulates into .grad, so every step after the first
moves the weights along the sum of all gradients so far (part 3, must-remember: "backward()
accumulates, so every step must clear the gradients")."""

import torch
import torch.nn.functional as F

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("zero_grad_set_to_none",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
