"""Reads a large pre-clip norm as missing clipping, though clipping ran (the norm at step is 1)."""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("missing_line",)


def missing_line(trace):
    if len(set(trace["lr"])) == 1:
        return "scheduler_step"
    if any(n > 1.0 + 1e-3 for n in trace["grad_norm"]):
        return "clip_grad_norm"
    return "none"
