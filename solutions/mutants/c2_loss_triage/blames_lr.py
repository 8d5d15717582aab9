"""Every trace is 'the learning rate': never names the missing line."""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("missing_line",)


def missing_line(trace):
    return "none"
