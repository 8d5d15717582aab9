"""12 bytes per trainable parameter: bf16 weight + grad + AdamW m and v, forgetting the fp32
master weights (part 7 §四: "autocast makes the parameters bf16")."""

from solutions.a6_training_state import *  # noqa: F403

KILLED_BY = ("full_finetune_bytes", "lora_bytes", "matches_real_tensors")


def state_breakdown(n_frozen, n_trainable):
    return {
        "frozen_weights": 2 * n_frozen,
        "weights": 2 * n_trainable,
        "grads": 2 * n_trainable,
        "master": 0,
        "adam_m": 4 * n_trainable,
        "adam_v": 4 * n_trainable,
    }


def full_finetune_bytes(n_params):
    return 12 * n_params


def lora_bytes(n_base, n_trainable):
    return 2 * n_base + 12 * n_trainable
