"""Answers in GB (a float, bytes / 1e9) instead of bytes as the stub asks."""

from solutions.a6_training_state import *  # noqa: F403

KILLED_BY = ("full_finetune_bytes", "lora_bytes")


def full_finetune_bytes(n_params):
    return 16 * n_params / 1e9


def lora_bytes(n_base, n_trainable):
    return (2 * n_base + 16 * n_trainable) / 1e9
