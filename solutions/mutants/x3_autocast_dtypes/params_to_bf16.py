"""'autocast makes the parameters bf16': casts the layer to bf16 instead of using autocast."""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

KILLED_BY = ("weight_dtype", "loss_dtype")


def autocast_experiment(x, weight, bias, targets):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    linear = linear.to(torch.bfloat16)
    logits = linear(x.to(torch.bfloat16))
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(),
            "loss": F.cross_entropy(logits, targets).detach()}
