"""Calls any last loss below the first a fall: one noisy step is then "the loss fell"."""

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

KILLED_BY = ("loss_curve",)


def loss_fell(losses):
    return bool(losses[-1] < losses[0])
