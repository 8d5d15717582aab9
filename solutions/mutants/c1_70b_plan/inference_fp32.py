"""Serves the model in fp32: 4 bytes per parameter, a quarter rather than an eighth of training."""

from solutions.c1_70b_plan import *  # noqa: F403

KILLED_BY = ("inference_bytes",)


def inference_bytes(n_params):
    return 4 * n_params
