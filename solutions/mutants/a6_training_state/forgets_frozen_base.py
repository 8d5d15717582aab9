"""LoRA counts only the adapters' 16 bytes: the frozen base's bf16 weights are forgotten
(they take no gradient and no optimizer state, but they are still in GPU memory)."""

from solutions.a6_training_state import *  # noqa: F403

KILLED_BY = ("lora_bytes", "matches_real_tensors")


def state_breakdown(n_frozen, n_trainable):
    return {
        "frozen_weights": 0,
        "weights": 2 * n_trainable,
        "grads": 2 * n_trainable,
        "master": 4 * n_trainable,
        "adam_m": 4 * n_trainable,
        "adam_v": 4 * n_trainable,
    }


def lora_bytes(n_base, n_trainable):
    return 16 * n_trainable
