"""Counts only the adapters (the base is "frozen, so free"): the frozen bf16 weights are still in memory."""

from solutions.a6_training_state import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A6", ("lora_bytes",), "leaves out the frozen base's bf16 weights"


def lora_bytes(n_base, n_trainable):
    return n_trainable * (2 + 2 + 4 + 4 + 4)
