"""Keeps the gradients in fp32 (4 bytes): 18 bytes per parameter."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("bytes_per_param",)


def bytes_per_param_parts():
    return {"bf16 weights": 2, "gradients": 4, "fp32 master weights": 4, "first moment": 4, "second moment": 4}
