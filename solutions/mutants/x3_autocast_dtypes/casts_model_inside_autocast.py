"""Casts the layer and the input to bf16 ("mixed precision means bf16 weights") and then runs the
forward under autocast anyway: the loss is still fp32 (autocast's reduction), but the stored
weight is now bf16 — the fp32 master weights are gone.

hp-l33/AiM issue #10 (``model = model.to(dtype=torch.bfloat16); x = x.to(dtype=dtype)`` when
bf16=True: "the loss decreases much more slowly"; the maintainer: the optimizer keeps fp32);
tianweiy/CausVid issue #19 (the parameters printed fp32 under mixed_precision=True, so the model
was cast to bf16 by hand, and training "is unable to converge").
"""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F403

KILLED_BY = ("weight_dtype",)
MISCONCEPTION = ("cast the layer to bf16 for mixed precision: autocast casts copies for the matmul; the stored "
                 "parameters stay fp32")


def autocast_experiment(x, weight, bias, targets):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    linear = linear.to(torch.bfloat16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = linear(x.to(torch.bfloat16))
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
