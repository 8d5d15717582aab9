"""Divides the activations by the GPU count under FSDP too, as if they were sharded like the state."""

from solutions.c1_70b_plan import *  # noqa: F403

KILLED_BY = ("per_gpu_with_activations",)


def per_gpu_bytes(state_bytes, activation_bytes, strategy, n_gpus):
    n = 1 if strategy == "DDP" else n_gpus
    return -(-(state_bytes + activation_bytes) // n)
