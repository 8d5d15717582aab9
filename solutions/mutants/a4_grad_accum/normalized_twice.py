"""Divides each micro-batch's summed loss by the full batch's valid-token count AND by k: the
gradient's direction is right, its size 1/k of the full-batch gradient.

The double normalisation unslothai/unsloth-zoo PR #1023 guards against ("Returning a count while
that flag is False normalises the loss twice ... silently scaling loss and grads by 1/GA").
"""

import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)
MISCONCEPTION = "divide by the full batch's token count and by k as well: the gradient comes out 1/k too small"


def accumulate_grads(model, micro_batches):
    model.zero_grad(set_to_none=True)
    n_valid = sum(int((mb["labels"] != -100).sum()) for mb in micro_batches)
    k = len(micro_batches)
    for mb in micro_batches:
        logits = model(mb["input_ids"])
        loss = (
            F.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100, reduction="sum"
            )
            / n_valid
            / k
        )
        loss.backward()
