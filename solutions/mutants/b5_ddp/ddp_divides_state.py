"""Thinks DDP splits the model over the GPUs (that is FSDP): divides the state by the GPU count."""

from solutions.b5_ddp import *  # noqa: F403

KILLED_BY = ("per_gpu_memory",)


def ddp_per_gpu_bytes(replica_state_bytes, activation_bytes, n_gpus):
    return -(-replica_state_bytes // n_gpus) + activation_bytes
