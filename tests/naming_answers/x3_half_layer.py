"""Casts the layer with .to(torch.bfloat16) "for mixed precision": part 7's misconception-table row
「autocast 把参数变成 bf16、显存减半」 (its answer: 「参数存储精度不变，主权重与两个矩仍是 fp32」)."""

import torch
import torch.nn.functional as F

from solutions.x3_autocast_dtypes import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "X3", ("weight_dtype",), "makes the parameter itself bf16"


def autocast_experiment(x, weight, bias, targets):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    linear = linear.to(torch.bfloat16)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
