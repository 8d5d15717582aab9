"""``torch.autocast("cpu")`` without a dtype: CPU autocast's default lower-precision dtype is bfloat16.

Valid: the same dtypes and values as naming ``dtype=torch.bfloat16``.
"""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

PASSES = ("weight_dtype", "logits_dtype", "loss_dtype")


def autocast_experiment(x, weight, bias, targets):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    with torch.autocast("cpu"):
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
