"""Looks for accumulated gradients before asking whether clipping ran: when clipping and
zero_grad are both missing it answers "zero_grad", though the stub's order puts the clip first.

The growing norm is the symptom every "why do we need to call zero_grad()?" answer describes
(Stack Overflow question 48001598, mirrored at
https://devpeace.com/python/48001598/why-do-we-need-to-call-zero-grad-in-pytorch), so it is
the first thing a learner looks for; with a single line missing the order never shows.
"""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("missing_line",)
MISCONCEPTION = "test for a missing zero_grad before testing whether clipping ran (the triage order is scheduler, clip, zero_grad)"


def missing_line(trace):
    lr, norms, at_step = trace["lr"], trace["grad_norm"], trace["grad_norm_at_step"]
    if len(set(lr)) == 1:
        return "scheduler_step"
    if len(norms) >= 2 and all(n >= 1.25 * norms[0] for n in norms[1:]):
        return "zero_grad"
    if any(n > 1.0 + 1e-3 for n in at_step):
        return "clip_grad_norm"
    return "none"
