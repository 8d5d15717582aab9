"""A hand-written loss that forgets the -100 mask: -100 targets are clamped to token 0 and
averaged in, so padding/prompt positions count as targets (part 3: ignore_index=-100 is the
SFT loss mask)."""

import torch
import torch.nn.functional as F

from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("float_logits_ignore_index",)


def train_step(model, optimizer, scheduler, batch, amp_dtype=None):
    x, y = batch
    with torch.autocast(device_type=x.device.type, dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
        logits = model(x)
    logp = F.log_softmax(logits.float(), dim=-1)
    loss = -logp.gather(-1, y.clamp(min=0).unsqueeze(-1)).mean()
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item(), "grad_norm": float(grad_norm)}
