"""FSDP's share as state // n_gpus (floor division), the remainder's bytes lost on some GPU."""

from solutions.c1_70b_plan import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C1", ("per_gpu_with_activations",), "rounds each GPU's share down"


def per_gpu_bytes(state_bytes, activation_bytes, strategy, n_gpus):
    if strategy == "DDP":
        return state_bytes + activation_bytes
    if strategy == "FSDP":
        return state_bytes // n_gpus + activation_bytes
    raise ValueError(strategy)
