"""'A shape error would raise': the 'safe' loss is the naive one and broadcasts (N,) vs (N, 1)."""

from solutions.x2_silent_broadcast import *  # noqa: F403

KILLED_BY = ("safe_loss",)


def safe_mse(pred, target):
    return ((pred - target) ** 2).mean()
