"""B5 — 在 8 张 GPU 上以 DDP 模式跑 LoRA SFT。

课程问（第七篇 · 五、通关自测 · B. 跨篇综合，第 5 题）::

    用 accelerate launch 在 8 卡上跑 8B LoRA SFT，DDP 模式。每张卡显存约多少？为什么每张卡是一个进程而不是一个线程？有效
    batch 是多少？

用代码作答。大小都是字节数（int）。

评分器测什么：你的字节数与一个真实的 LoRA 副本的训练状态相比；你在抽取的情形上的 batch 算术；你的
all-reduce 与一个真实模型在整个 batch 上的梯度相比；你的命令按 torch 自己的 torchrun 参数解析器的
读法。

学习：第四篇 · 结论（多卡）；第一篇 · 必记；第七篇 · 三、贯穿全系列的几条线（第 3 条）。

English
-------

B5 — a LoRA SFT on 8 GPUs in DDP mode.

The course asks (第七篇 · 五、通关自测 · B. 跨篇综合, question 5)::

    用 accelerate launch 在 8 卡上跑 8B LoRA SFT，DDP 模式。每张卡显存约多少？为什么每张卡是一个进程而不是一个线程？有效
    batch 是多少？

    An 8B LoRA SFT with accelerate launch on 8 GPUs, in DDP mode. About how much memory per
    GPU? Why is each GPU one process and not one thread? What is the effective batch?

Answer it as code. Sizes are bytes (ints).

What the grader measures: your bytes against a real LoRA replica's training state; your batch
arithmetic on drawn cases; your all-reduce against the full-batch gradient of a real model; your
command as torch's own torchrun argument parser reads it.

Study: 第四篇 · 结论 (多卡) / part 4, conclusion; 第一篇 · 必记 / part 1, must-remember;
第七篇 · 三、贯穿全系列的几条线 / part 7, §三.3.
"""

import torch


def ddp_per_gpu_bytes(replica_state_bytes: int, activation_bytes: int, n_gpus: int) -> int:
    """DDP 下每张 GPU 上的字节数。

    参数：
        replica_state_bytes: 整个模型的训练状态（权重、梯度、优化器状态），与在一张 GPU 上时
            一样。
        activation_bytes: 一张 GPU 处理的 micro-batch 的激活。
        n_gpus: 这次运行的 GPU 数。

    返回 int。出处：第四篇 · 结论（多卡）。

    English
    -------

    Bytes on each GPU under DDP.

    Args:
        replica_state_bytes: the training state of the whole model (weights, gradients,
            optimizer state), as on one GPU.
        activation_bytes: the activations of the micro-batch one GPU processes.
        n_gpus: GPUs in the run.

    Returns an int. Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("B5: ddp_per_gpu_bytes")


def effective_batch(per_gpu_batch: int, n_gpus: int, accumulation_steps: int) -> int:
    """进入一次优化器 step 的样本数（int）。

    出处：第四篇 · 结论（多卡）；第三篇 · 结论。

    English
    -------

    Samples that go into one optimizer step (an int).

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion; 第三篇 · 结论 / part 3, conclusion.
    """
    raise NotImplementedError("B5: effective_batch")


def allreduce_grads(rank_grads: list[torch.Tensor]) -> torch.Tensor:
    """DDP 的 all-reduce 之后每个 rank 持有的梯度。

    参数：
        rank_grads: 每个 rank 一个梯度张量（形状和 dtype 相同），各是该 rank 在全局 batch 中等大的
            那一份上平均 loss 的梯度。

    返回：
        形状和 dtype 相同的张量。与一个真实模型的梯度相比。

    出处：第四篇 · 结论（多卡）。

    English
    -------

    The gradient every rank holds after DDP's all-reduce.

    Args:
        rank_grads: one gradient tensor per rank (same shape and dtype), each the gradient of
            the mean loss over that rank's equal-sized shard of the global batch.

    Returns:
        A tensor of the same shape and dtype. Measured against the gradients of a real model.

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("B5: allreduce_grads")


def launch_command(n_gpus: int, script: str) -> str:
    """在这台机器的 ``n_gpus`` 张 GPU 上启动 ``script`` 的 ``torchrun`` 命令行。

    测的是：按 torch 自己的 torchrun 参数解析器的读法。
    出处：第一篇 · 必记；第五篇 · 结论。

    English
    -------

    The ``torchrun`` command line that starts ``script`` on ``n_gpus`` GPUs of this machine.

    Measured: as torch's own torchrun argument parser reads it.
    Source: 第一篇 · 必记 / part 1, must-remember; 第五篇 · 结论 / part 5, conclusion.
    """
    raise NotImplementedError("B5: launch_command")
