"""Gradient driver: calls one of the learner's functions on tensors that require grad, in the
learner's process (a graph cannot cross processes), and back-propagates a cotangent drawn from a
seed. Returns the detached output and the gradient of every input asked for (None where none
arrived). The check computes the reference gradient itself, with torch autograd on the formula;
a function that returns the right numbers cut off from the graph (``.item()`` rebuilt into a
tensor, a ``torch.no_grad()`` body, ``.detach()``) gets no gradient back.
"""

from __future__ import annotations

import torch


def cotangent(shape, dtype, seed: int) -> torch.Tensor:
    """The weights the output is back-propagated with: the check draws the same ones."""
    g = torch.Generator().manual_seed(seed)
    return torch.randn(tuple(shape), generator=g, dtype=torch.float64).to(dtype)


def grad_of(
    learner_module, fn_name: str, args: list, *, wrt: list[int], seed: int = 0, kwargs: dict | None = None
) -> dict:
    args = [a.detach().clone().requires_grad_(True) if i in wrt else a for i, a in enumerate(args)]
    out = getattr(learner_module, fn_name)(*args, **(kwargs or {}))
    if not isinstance(out, torch.Tensor):
        return {"output": out, "has_graph": False, "grads": [None] * len(wrt)}
    has_graph = out.requires_grad
    if has_graph:
        out.backward(cotangent(out.shape, out.dtype, seed))
    return {
        "output": out.detach(),
        "has_graph": has_graph,
        "grads": [args[i].grad.detach() if args[i].grad is not None else None for i in wrt],
    }
