"""B5 — a LoRA SFT on 8 GPUs in DDP mode.

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
    """Bytes on each GPU under DDP.

    Args:
        replica_state_bytes: the training state of the whole model (weights, gradients,
            optimizer state), as on one GPU.
        activation_bytes: the activations of the micro-batch one GPU processes.
        n_gpus: GPUs in the run.

    Returns an int. Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("B5: ddp_per_gpu_bytes")


def effective_batch(per_gpu_batch: int, n_gpus: int, accumulation_steps: int) -> int:
    """Samples that go into one optimizer step (an int).

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion; 第三篇 · 结论 / part 3, conclusion.
    """
    raise NotImplementedError("B5: effective_batch")


def allreduce_grads(rank_grads: list[torch.Tensor]) -> torch.Tensor:
    """The gradient every rank holds after DDP's all-reduce.

    Args:
        rank_grads: one gradient tensor per rank (same shape and dtype), each the gradient of
            the mean loss over that rank's equal-sized shard of the global batch.

    Returns:
        A tensor of the same shape and dtype. Measured against the gradients of a real model.

    Source: 第四篇 · 结论 (多卡) / part 4, conclusion.
    """
    raise NotImplementedError("B5: allreduce_grads")


def launch_command(n_gpus: int, script: str) -> str:
    """The ``torchrun`` command line that starts ``script`` on ``n_gpus`` GPUs of this machine.

    Measured: as torch's own torchrun argument parser reads it.
    Source: 第一篇 · 必记 / part 1, must-remember; 第五篇 · 结论 / part 5, conclusion.
    """
    raise NotImplementedError("B5: launch_command")
