"""Thinks DDP splits the model over the GPUs: divides the state by the GPU count under DDP too."""

from solutions.c1_70b_plan import *  # noqa: F403

KILLED_BY = ("ddp_vs_fsdp",)


def per_gpu_bytes(state_bytes, activation_bytes, strategy, n_gpus):
    return -(-state_bytes // n_gpus) + activation_bytes
