"""Takes each micro-batch's token mean and divides by k: right only when every micro-batch has
the same number of valid (non -100) tokens, wrong for SFT batches with masked prompts."""

import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)


def accumulate_grads(model, micro_batches):
    model.zero_grad()
    k = len(micro_batches)
    for mb in micro_batches:
        if not (mb["labels"] != -100).any():
            continue  # its mean would be NaN
        logits = model(mb["input_ids"])
        (
            F.cross_entropy(logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100) / k
        ).backward()
