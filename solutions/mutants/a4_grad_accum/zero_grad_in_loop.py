"""Calls zero_grad inside the micro-batch loop: only the last micro-batch's gradient survives.

The misconception "two backward calls without zero_grad is always a bug" (part 7, §四).
"""

import torch
import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("repeated_backward", "matches_full_batch")


def grad_after_k_backwards(w, x, k):
    wt = torch.tensor(float(w), dtype=torch.float64, requires_grad=True)
    for _ in range(k):
        wt.grad = None
        ((wt * x - 1) ** 2).backward()
    return float(wt.grad)


def accumulate_grads(model, micro_batches):
    n_valid = sum(int((mb["labels"] != -100).sum()) for mb in micro_batches)
    for mb in micro_batches:
        model.zero_grad()
        logits = model(mb["input_ids"])
        F.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100, reduction="sum"
        ).div(n_valid).backward()
