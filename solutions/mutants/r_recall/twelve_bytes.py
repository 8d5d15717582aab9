"""Forgets the fp32 master copy: 12 bytes per parameter (2 + 2 + 4 + 4)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("bytes_per_param",)


def bytes_per_param_parts():
    return {"weights": 2, "grads": 2, "adam_m": 4, "adam_v": 4}
