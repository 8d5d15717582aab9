"""Computes the loss outside autocast on the bf16 logits: the loss comes back bf16."""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

KILLED_BY = ("loss_dtype",)


def autocast_experiment(x, weight, bias, targets):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = F.linear(x, weight, bias)
    return {"weight_after": weight.clone(), "logits": logits, "loss": F.cross_entropy(logits, targets)}
