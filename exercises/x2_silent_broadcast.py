"""X2 — loss 里的一个错误形状：实验。

课程把它列为误区之一，并问它为什么错（第七篇 · 四、常见误区，误区 · 为什么错 两列）::

    形状错了会报错

在不匹配的形状上运行一个匆忙的教程写的 loss，看看返回什么；然后写出本来能发现它的 loss。

评分器测什么：你的朴素 loss 返回的东西与 torch 在同样张量上的结果相比；你的安全 loss 拒绝形状不同的那些对，
并在其余的对上等于 torch 的均方误差（它的值和它的梯度）。

学习：第二篇 · 必记；第二篇 · 常见误解。

English
-------

X2 — a wrong shape in a loss: the experiment.

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
    """一个匆忙的教程写出的均方误差：用张量运算符，自己不做任何检查。

    参数：
        pred, target: float 张量，例如形状为 ``(N,)`` 的预测和形状为 ``(N, 1)`` 的目标。

    返回：
        一个二元组：它的值（Python float），以及它求平均的逐元素差的形状（int 组成的 tuple）。

    出处：第二篇 · 必记；第七篇 · 四、常见误区。

    English
    -------

    The mean squared error as a hurried tutorial writes it: with the tensor operators, and no
    check of its own.

    Args:
        pred, target: float tensors, e.g. predictions of shape ``(N,)`` and targets of shape
            ``(N, 1)``.

    Returns:
        A pair: its value as a Python float, and the shape of the elementwise difference it
        averages, as a tuple of ints.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("X2: naive_mse")


def safe_mse(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """一个本来能发现题目里那个错误的均方误差。

    返回：
        一个训练可以对它调用 ``.backward()`` 的标量张量：对它接受的输入，``pred`` 和 ``target`` 的均方误差。

    抛出：
        ValueError: 对形状不匹配的输入。

    出处：第二篇 · 常见误解。

    English
    -------

    A mean squared error that would have caught the question's mistake.

    Returns:
        A scalar tensor that training can call ``.backward()`` on: the mean squared error of
        ``pred`` and ``target``, for the inputs it accepts.

    Raises:
        ValueError: for inputs whose shapes do not match.

    Source: 第二篇 · 常见误解 / part 2, misconceptions.
    """
    raise NotImplementedError("X2: safe_mse")
