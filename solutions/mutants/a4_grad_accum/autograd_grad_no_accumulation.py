"""Computes the gradient with ``torch.autograd.grad`` k times and returns the last one: autograd.grad
returns gradients without adding them into ``.grad``, so k calls give the single gradient, not k x.

The difference pytorch/PiPPy issue #1031 ("autograd.backward() or autograd.grad()") spells out:
"If using .grad(), gradients will not be accumulated onto the parameters of the model."
"""

import torch

from solutions.a4_grad_accum import *  # noqa: F401,F403

KILLED_BY = ("repeated_backward",)
MISCONCEPTION = "take torch.autograd.grad k times: it returns each gradient and adds nothing into .grad"


def grad_after_k_backwards(w, x, k):
    wt = torch.tensor(float(w), dtype=torch.float64, requires_grad=True)
    g = None
    for _ in range(k):
        (g,) = torch.autograd.grad((wt * x - 1) ** 2, wt)
    return float(g)
