"""Concatenates the micro-batches and runs one big forward: the right gradient, but all the
activations at once, which is what accumulation is there to avoid."""

import torch
import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)


def accumulate_grads(model, micro_batches):
    model.zero_grad()
    ids = torch.cat([mb["input_ids"] for mb in micro_batches])
    labels = torch.cat([mb["labels"] for mb in micro_batches])
    logits = model(ids)
    F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=-100).backward()
