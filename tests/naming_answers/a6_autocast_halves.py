"""Halves the 16 bytes because "autocast makes the parameters bf16" (part 7 §四, the course's misconception)."""

from solutions.a6_training_state import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A6", ("full_finetune_bytes",), "autocast does not halve"


def full_finetune_bytes(n_params):
    return 16 * n_params // 2
