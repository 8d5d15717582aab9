"""Answers "none" for every trace: never names the missing line (the run "looks fine")."""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("missing_line",)
MISCONCEPTION = "read every trace as a healthy loop: each missing line leaves its own sign in lr or grad_norm"


def missing_line(trace):
    return "none"
