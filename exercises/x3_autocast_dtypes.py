"""X3 — autocast 对一个层的 dtype 做了什么：实验。

课程把它列为误区之一，并问它为什么错（第七篇 · 四、常见误区，误区 · 为什么错 两列）::

    autocast 把参数变成 bf16、显存减半

运行这个实验，原样报告它得出的东西。

评分器测什么：你报告的 dtype 和值与在它自己进程里运行的同一个实验相比。

学习：第四篇 · 结论；第四篇 · 常见误解。

English
-------

X3 — what autocast does to a layer's dtypes: the experiment.

The course lists it among its misconceptions and asks why it is wrong (第七篇 · 四、常见误区,
columns 误区 · 为什么错)::

    autocast 把参数变成 bf16、显存减半

    autocast turns the parameters into bf16 and halves the memory.

Run the experiment and report, unchanged, what comes out of it.

What the grader measures: the dtypes and values you report against the same experiment run in
its own process.

Study: 第四篇 · 结论 / part 4, conclusion; 第四篇 · 常见误解 / part 4, misconceptions.
"""

import torch


def autocast_experiment(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, targets: torch.Tensor) -> dict:
    """构建持有 ``weight`` 和 ``bias`` 的 ``torch.nn.Linear(d_in, d_out)``；然后在
    ``torch.autocast("cpu", dtype=torch.bfloat16)`` 里面计算 ``logits = linear(x)`` 和
    ``loss = F.cross_entropy(logits, targets)``。

    参数：
        x: float32 [B, d_in]；weight: float32 [d_out, d_in]；bias: float32 [d_out]；
        targets: int64 [B]，[0, d_out) 内的类别下标。

    返回：
        一个 dict：``"weight_after"``，forward 之后该层存储在模块里的权重（detach）；``"logits"``，
        linear 原样输出的结果（detach）；``"loss"``，原样得到的 loss（detach）。不要转换任何 dtype。

    出处：第四篇 · 结论；第三篇 · 必记。

    English
    -------

    Build ``torch.nn.Linear(d_in, d_out)`` holding ``weight`` and ``bias``; then, inside
    ``torch.autocast("cpu", dtype=torch.bfloat16)``, compute ``logits = linear(x)`` and
    ``loss = F.cross_entropy(logits, targets)``.

    Args:
        x: float32 [B, d_in]; weight: float32 [d_out, d_in]; bias: float32 [d_out];
        targets: int64 [B], class indices in [0, d_out).

    Returns:
        A dict: ``"weight_after"``, the layer's weight after the forward, as stored in the
        module (detached); ``"logits"``, the linear output as it came out (detached);
        ``"loss"``, the loss as it came out (detached). Do not convert any dtype.

    Source: 第四篇 · 结论 / part 4, conclusion; 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("X3: autocast_experiment")
