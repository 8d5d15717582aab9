"""Leaves the accumulation steps out of the effective batch."""

from solutions.b5_ddp import *  # noqa: F403

KILLED_BY = ("effective_batch",)


def effective_batch(per_gpu_batch, n_gpus, accumulation_steps):
    return per_gpu_batch * n_gpus
