"""Treats the 16-byte account as the whole story: the activations never appear on the GPU."""

from solutions.c1_70b_plan import *  # noqa: F403
from solutions.c1_70b_plan import per_gpu_bytes as _per_gpu_bytes

KILLED_BY = ("per_gpu_with_activations",)
MISCONCEPTION = "treat the state's account as the whole story: each GPU holds its activations on top of it"


def per_gpu_bytes(state_bytes, activation_bytes, strategy, n_gpus):
    return _per_gpu_bytes(state_bytes, 0, strategy, n_gpus)
