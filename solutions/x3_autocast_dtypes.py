"""X3 — autocast leaves parameters in fp32 (part 7 §五.D; parts 3-4)."""

import torch
import torch.nn.functional as F


def autocast_experiment(x, weight, bias, targets):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
