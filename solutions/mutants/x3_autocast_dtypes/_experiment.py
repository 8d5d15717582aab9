"""Shared by the X3 mutants (not a mutant: the leading underscore keeps it out of the harness).

The reference experiment with each step replaceable (what is done to the layer and the input
before the forward, the context the forward and the loss run in), so a mutant changes one step.
"""

import torch
import torch.nn.functional as F


def cpu_bf16_autocast():
    return torch.autocast("cpu", dtype=torch.bfloat16)


def as_given(linear, x):
    return linear, x


def cast_to_bf16(linear, x):
    return linear.to(torch.bfloat16), x.to(torch.bfloat16)


def autocast_experiment(x, weight, bias, targets, *, prepare=as_given, context=cpu_bf16_autocast):
    linear = torch.nn.Linear(weight.shape[1], weight.shape[0])
    with torch.no_grad():
        linear.weight.copy_(weight)
        linear.bias.copy_(bias)
    linear, x = prepare(linear, x)
    with context():
        logits = linear(x)
        loss = F.cross_entropy(logits, targets)
    return {"weight_after": linear.weight.detach(), "logits": logits.detach(), "loss": loss.detach()}
