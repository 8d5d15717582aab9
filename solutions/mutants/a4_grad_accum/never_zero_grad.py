"""Never clears the gradients: the previous step's gradient is added to this step's."""

import torch.nn.functional as F

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("matches_full_batch",)


def accumulate_grads(model, micro_batches):
    n_valid = sum(int((mb["labels"] != -100).sum()) for mb in micro_batches)
    for mb in micro_batches:
        logits = model(mb["input_ids"])
        F.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), mb["labels"].reshape(-1), ignore_index=-100, reduction="sum"
        ).div(n_valid).backward()
