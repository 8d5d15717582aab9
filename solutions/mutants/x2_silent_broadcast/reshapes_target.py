"""Quietly fixes the shapes inside the 'naive' loss (target.view_as(pred)), so the experiment never
shows the silent broadcast."""

from solutions.x2_silent_broadcast import *  # noqa: F403

KILLED_BY = ("naive_loss",)


def naive_mse(pred, target):
    diff = pred - target.reshape(pred.shape)
    return float((diff**2).mean()), tuple(diff.shape)
