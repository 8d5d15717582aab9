"""Budgets inference like training, 16 bytes per parameter (part 4: "推理只有一份权重、训练是它的 8 倍")."""

from solutions.c1_70b_plan import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C1", ("inference_bytes",), "counts the training state's 16 bytes for inference"


def inference_bytes(n_params):
    return 16 * n_params
