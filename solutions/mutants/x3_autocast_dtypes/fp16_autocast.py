"""Uses float16 instead of bfloat16 for autocast: the matmul outputs come back fp16."""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

KILLED_BY = ("logits_dtype",)


def autocast_experiment(x, weight, bias, targets):
    with torch.autocast("cpu", dtype=torch.float16):
        logits = F.linear(x, weight, bias)
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": weight.clone(), "logits": logits, "loss": loss}
