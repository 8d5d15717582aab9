"""Counts every parameter of a LoRA run at 16 bytes, frozen base included (part 7 §四: "LoRA 只减梯度与状态那 14
字节")."""

from solutions.a6_training_state import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A6", ("lora_bytes",), "counts the frozen base at 16 bytes"


def lora_bytes(n_base, n_trainable):
    return 16 * (n_base + n_trainable)
