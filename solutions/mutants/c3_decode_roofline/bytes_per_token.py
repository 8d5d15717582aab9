"""Reads the weights once per token instead of once per step: intensity stays 1 at any batch
("batching does not help")."""

from solutions.c3_decode_roofline import *  # noqa: F403

KILLED_BY = ("decode_step_cost",)


def decode_cost(n_params, batch, bytes_per_param):
    return 2.0 * n_params * batch, float(n_params * bytes_per_param * batch)
