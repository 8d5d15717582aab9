"""Backpropagates each micro-batch's mean loss unscaled: the gradient is about k times too big."""

import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)


def accumulate_grads(model, micro_batches):
    model.zero_grad()
    for mb in micro_batches:
        if not (mb["labels"] != -100).any():
            continue
        logits = model(mb["input_ids"])
        F.cross_entropy(logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100).backward()
