"""Forgets the autocast context: everything runs in fp32, the logits come back fp32."""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

KILLED_BY = ("logits_dtype",)


def autocast_experiment(x, weight, bias, targets):
    logits = F.linear(x, weight, bias)
    return {"weight_after": weight.clone(), "logits": logits, "loss": F.cross_entropy(logits, targets)}
