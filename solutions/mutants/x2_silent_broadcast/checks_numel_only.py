"""Checks the number of elements instead of the shape: (N,) vs (N, 1) both hold N and pass."""

import torch.nn.functional as F

from solutions.x2_silent_broadcast import *  # noqa: F403

KILLED_BY = ("safe_loss",)


def safe_mse(pred, target):
    if pred.numel() != target.numel():
        raise ValueError("size mismatch")
    return F.mse_loss(pred.reshape(-1), target.reshape(-1))
