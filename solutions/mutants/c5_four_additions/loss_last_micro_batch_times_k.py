"""Reports the last micro-batch's (already divided) loss times k as the step's loss: the gradient
and the step are right, the returned loss is one micro-batch's loss, not the full batch's mean.

karpathy/nanoGPT pull request #207 (after issue #206, "Logic Error in gradient accumulation?"):
"I am only approximating the true loss by multiplying by num gradient accum, but this suffices just
to get approximate numbers printed in the console" (commit 553f949: ``lossf = loss.item() *
gradient_accumulation_steps`` of the last micro-step). The stub: "Returns {"loss": the full
batch's mean loss (float), ...}".
"""

import torch
import torch.nn.functional as F

from solutions.c5_four_additions import *  # noqa: F403

KILLED_BY = ("accumulated_step",)
MISCONCEPTION = "report the last micro-batch's loss times k: return the mean of the k micro-batch losses"


def train_step_accumulated(model, optimizer, scheduler, micro_batches, amp_dtype=None):
    k = len(micro_batches)
    for x, y in micro_batches:
        with torch.autocast("cpu", dtype=amp_dtype or torch.bfloat16, enabled=amp_dtype is not None):
            logits = model(x)
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), y.view(-1), ignore_index=-100) / k
        loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return {"loss": loss.item() * k, "grad_norm": float(grad_norm)}
