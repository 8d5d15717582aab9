"""X2 — a wrong shape in a loss: the experiment.

The course lists it among its misconceptions and asks why it is wrong (第七篇 · 四、常见误区,
columns 误区 · 为什么错)::

    形状错了会报错

    A wrong shape raises an error.

Run the loss a hurried tutorial writes on shapes that do not match, and see what comes back;
then write the loss that would have caught it.

What the grader measures: what your naive loss returns against torch run on the same tensors;
that your safe loss refuses the pairs whose shapes differ, and equals torch's mean squared error
(its value and its gradient) on the others.

Study: 第二篇 · 必记 / part 2, must-remember; 第二篇 · 常见误解 / part 2, misconceptions.
"""

import torch


def naive_mse(pred: torch.Tensor, target: torch.Tensor) -> tuple[float, tuple[int, ...]]:
    """The mean squared error as a hurried tutorial writes it: with the tensor operators, and no
    check of its own.

    Args:
        pred, target: float tensors, e.g. predictions of shape ``(N,)`` and targets of shape
            ``(N, 1)``.

    Returns:
        ``(its value as a Python float, the shape of the elementwise difference it averages, as
        a tuple of ints)``.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("X2: naive_mse")


def safe_mse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """A mean squared error that would have caught the question's mistake.

    Returns:
        A scalar tensor that training can call ``.backward()`` on: the mean squared error of
        ``pred`` and ``target``, for the inputs it accepts.

    Raises:
        ValueError: for inputs whose shapes do not match.

    Source: 第二篇 · 常见误解 / part 2, misconceptions.
    """
    raise NotImplementedError("X2: safe_mse")
