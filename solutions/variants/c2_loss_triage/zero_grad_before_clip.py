"""Looks for accumulated gradients before asking whether clipping ran: when clipping and
zero_grad are both missing it answers "zero_grad".

Valid: both lines are missing, and the growing norm is the symptom every "why do we need to
call zero_grad()?" answer describes (Stack Overflow question 48001598); any left-out line is
the contract's answer.
"""

from solutions.c2_loss_triage import *  # noqa: F403


PASSES = ("missing_line",)


def missing_line(trace):
    lr, norms, at_step = trace["lr"], trace["grad_norm"], trace["grad_norm_at_step"]
    if len(set(lr)) == 1:
        return "scheduler_step"
    if len(norms) >= 2 and all(n >= 1.25 * norms[0] for n in norms[1:]):
        return "zero_grad"
    if any(n > 1.0 + 1e-3 for n in at_step):
        return "clip_grad_norm"
    return "none"
