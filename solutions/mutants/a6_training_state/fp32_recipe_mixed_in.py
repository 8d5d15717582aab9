"""Mixes the fp32 recipe (fp32 weight 4 + fp32 grad 4 + Adam 8) into the bf16 account: the
trainable total is still 16, but the parts are wrong and the frozen base is kept in fp32 (4)."""

from solutions.a6_training_state import *  # noqa: F403

KILLED_BY = ("lora_bytes", "matches_real_tensors")


def state_breakdown(n_frozen, n_trainable):
    return {
        "frozen_weights": 4 * n_frozen,
        "weights": 4 * n_trainable,
        "grads": 4 * n_trainable,
        "master": 0,
        "adam_m": 4 * n_trainable,
        "adam_v": 4 * n_trainable,
    }


def lora_bytes(n_base, n_trainable):
    return 4 * n_base + 16 * n_trainable
