"""zero_grad and step inside the micro-loop: k small steps instead of one accumulated step."""

import torch
import torch.nn.functional as F

from solutions.c5_four_additions import *  # noqa: F403

KILLED_BY = ("accumulated_step",)


def train_step_accumulated(model, optimizer, scheduler, micro_batches, amp_dtype=None):
    total, norm = 0.0, 0.0
    for x, y in micro_batches:
        logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100)
        loss.backward()
        norm = float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0))
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        total += loss.item()
    scheduler.step()
    return {"loss": total / len(micro_batches), "grad_norm": norm}
