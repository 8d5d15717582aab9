"""Gradients that backward() accumulates, by real autograd (A4's repeated backward, the quiz's)."""

from __future__ import annotations

import torch


def grad_after_k_backwards(w: float, x: float, k: int) -> float:
    """``w.grad`` after ``k`` calls of ``((w * x - 1) ** 2).backward()`` with no zeroing (float64)."""
    wt = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    for _ in range(k):
        ((wt * x - 1) ** 2).backward()
    return float(wt.grad)
