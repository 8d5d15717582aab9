"""Loads the frozen base in fp32 (from_pretrained's default dtype before torch_dtype="auto"): 4 bytes per frozen
parameter."""

from solutions.a6_training_state import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A6", ("lora_bytes",), "counts the frozen base in fp32"


def lora_bytes(n_base, n_trainable):
    return n_base * 4 + n_trainable * 16
