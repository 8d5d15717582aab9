"""bf16 weights + bf16 grads + AdamW's two fp32 moments = 12 bytes: the fp32 master copy is forgotten
(part 7 §四: "autocast 把参数变成 bf16" — the master weights stay fp32; DeepSpeed's ZeRO paper counts 16)."""

from solutions.a6_training_state import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A6", ("full_finetune_bytes",), "fp32 master copy"


def full_finetune_bytes(n_params):
    return (2 + 2 + 4 + 4) * n_params
