"""B5 — DDP on 8 GPUs (part 7 §五.B q5; parts 1, 4, 5)."""

import torch


def ddp_per_gpu_bytes(replica_state_bytes, activation_bytes, n_gpus):
    return replica_state_bytes + activation_bytes  # a full replica on every GPU: n_gpus does not divide it


def effective_batch(per_gpu_batch, n_gpus, accumulation_steps):
    return per_gpu_batch * n_gpus * accumulation_steps


def allreduce_grads(rank_grads):
    return torch.stack(list(rank_grads)).mean(dim=0)


def launch_command(n_gpus, script):
    return f"torchrun --nproc_per_node={n_gpus} {script}"
