"""Counts the model as loaded for inference, one bf16 copy (2 bytes per parameter): "training is 8x" forgotten."""

from solutions.a6_training_state import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A6", ("full_finetune_bytes",), "counts only the bf16 weights"


def full_finetune_bytes(n_params):
    return n_params * 2
