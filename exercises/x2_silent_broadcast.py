"""X2 — a wrong shape broadcasts silently (part 7, §五.D counter-intuitive conclusions; part 2).

Misconception (part 7 §四): "a shape error raises an error". Broadcasting is lenient: predictions
of shape (N,) minus targets of shape (N, 1) give an (N, N) matrix, and its mean is a number, just
the wrong one. Show it, then write the loss that refuses it.
"""

import torch


def naive_mse(pred: torch.Tensor, target: torch.Tensor) -> tuple[float, tuple[int, ...]]:
    """The loss as a hurried tutorial writes it: ``((pred - target) ** 2).mean()``, no checks.

    Args:
        pred, target: float tensors of any shapes that broadcast, e.g. (N,) and (N, 1).

    Returns:
        ``(loss as a Python float, shape of pred - target as a tuple)``: for (N,) and (N, 1) it
        runs and returns shape (N, N): no error, a wrong number.

    Source: part 2, must-remember "broadcasting aligns from the right ... the 1 is stretched";
    part 7 §四 "(3,) + (3, 1) becomes (3, 3)".
    """
    raise NotImplementedError("X2: naive_mse")


def safe_mse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Mean squared error that refuses mismatched shapes.

    Args:
        pred, target: float tensors.

    Returns:
        A scalar tensor equal to ``F.mse_loss(pred, target)`` when the shapes are identical.

    Raises:
        ValueError: ``pred.shape != target.shape`` (even when they would broadcast, or have the
        same number of elements).

    Source: part 2, "assert shapes at the key places, above all logits and labels before the loss".
    """
    raise NotImplementedError("X2: safe_mse")
