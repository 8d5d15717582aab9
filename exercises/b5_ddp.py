"""B5 — an 8B LoRA SFT with ``accelerate launch`` on 8 GPUs in DDP mode: how much memory per GPU,
why one process (not one thread) per GPU, and what is the effective batch?
(part 7, §五.B question 5; parts 1, 4 and 5).

Parts it draws on: part 4 (DDP keeps a full replica per GPU and all-reduces the gradients:
mathematically an 8x larger batch), part 1 (the GIL: threads cannot run Python bytecode in
parallel, so each rank is its own process), part 5 (accelerate launch = torchrun
--nproc_per_node=8). Sizes are in bytes (ints).
"""

import torch


def ddp_per_gpu_bytes(replica_state_bytes: int, activation_bytes: int, n_gpus: int) -> int:
    """Bytes on each GPU under DDP: one full replica of the training state plus this GPU's own
    activations (16.7 GB + activations for the 8B LoRA). Returns an int.
    Source: part 4, "DDP: each GPU holds a full model and its state".
    """
    raise NotImplementedError("B5: ddp_per_gpu_bytes")


def effective_batch(per_gpu_batch: int, n_gpus: int, accumulation_steps: int) -> int:
    """Samples per optimizer step: per-GPU batch x GPUs x accumulation steps (an int).
    Source: part 4 (DDP = an n_gpus-times larger batch) and part 3 (accumulation).
    """
    raise NotImplementedError("B5: effective_batch")


def allreduce_mean(rank_grads: list[torch.Tensor]) -> torch.Tensor:
    """What DDP's all-reduce leaves on every rank: the mean of the ranks' gradients.

    Args:
        rank_grads: one gradient tensor per rank (same shape and dtype), each the gradient of
            the mean loss over that rank's equal-sized shard of the batch.
    Returns a tensor of the same shape: equal to the gradient of the mean loss over the whole
    global batch (checked against it). Source: part 4, "all-reduce the gradients".
    """
    raise NotImplementedError("B5: allreduce_mean")


def launch_command(n_gpus: int, script: str) -> str:
    """The shell command that starts one process per GPU running ``script``, with torchrun.

    E.g. ``"torchrun --nproc_per_node=8 train.py"``; it is parsed with torch's own torchrun
    argument parser. Source: part 1 (GIL: processes, not threads), part 5 (accelerate launch is
    torchrun --nproc_per_node=8).
    """
    raise NotImplementedError("B5: launch_command")
