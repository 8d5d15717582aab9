"""Counts the frozen base at 16 bytes per parameter as if it trained: LoRA would then save
nothing (part 7 §四: "LoRA only removes the 14 bytes/param of gradients and state")."""

from solutions.a6_training_state import *  # noqa: F403

KILLED_BY = ("lora_bytes", "matches_real_tensors")


def state_breakdown(n_frozen, n_trainable):
    return {
        "frozen_weights": 16 * n_frozen,
        "weights": 2 * n_trainable,
        "grads": 2 * n_trainable,
        "master": 4 * n_trainable,
        "adam_m": 4 * n_trainable,
        "adam_v": 4 * n_trainable,
    }


def lora_bytes(n_base, n_trainable):
    return 16 * (n_base + n_trainable)
