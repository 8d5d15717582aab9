"""Right totals, wrong parts: the breakdown puts the gradients in fp32 (4) and the bf16 weight
copy at 0, as if autocast kept fp32 gradients and no separate master copy."""

from solutions.a6_training_state import *  # noqa: F403

KILLED_BY = ("matches_real_tensors",)


def state_breakdown(n_frozen, n_trainable):
    return {
        "frozen_weights": 2 * n_frozen,
        "weights": 0,
        "grads": 4 * n_trainable,
        "master": 4 * n_trainable,
        "adam_m": 4 * n_trainable,
        "adam_v": 4 * n_trainable,
    }
