"""Rebuilds the loss as a new tensor from its value (``torch.tensor(loss.item())``): a scalar tensor
with the right number, cut off from the graph, so ``backward()`` raises or (after
``requires_grad = True``) trains nothing.

ronghuaiyang/arcface-pytorch issue #56 ("element 0 of tensors does not require grad and does not
have a grad_fn" — patched with ``loss.requires_grad = True``, then "the loss is not decline");
speechbrain/speechbrain issue #735 (``loss = Variable(loss, requires_grad=True)``);
lxztju/pytorch_classification issue #32.
"""

import torch

from solutions.x2_silent_broadcast import *  # noqa: F403
from solutions.x2_silent_broadcast import safe_mse as _reference

KILLED_BY = ("safe_loss",)
MISCONCEPTION = (
    "rebuild the loss from its value (torch.tensor(loss.item())): it leaves the graph, no gradient reaches pred"
)


def safe_mse(pred, target):
    return torch.tensor(_reference(pred, target).item(), dtype=pred.dtype)
