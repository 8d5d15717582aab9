"""Counts the bf16 weight of a trainable parameter twice: grads and state at 16 bytes instead of 14."""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("memory_blocks",)


def memory_blocks(n_frozen, n_trainable, activation_bytes, kv_cache_bytes):
    return {
        "weights": 2 * (n_frozen + n_trainable),
        "grads_and_state": 16 * n_trainable,
        "activations": activation_bytes,
        "kv_cache": kv_cache_bytes,
    }
