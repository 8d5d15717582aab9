"""Asks whether clipping ran before asking whether the lr changes: a run without the scheduler
and without the clip is reported as "clip_grad_norm".

Valid: both lines are missing from that run and the contract asks for a line that was left out;
the course gives no order among them (第七篇 · C 面试题 2: "二十行里少了哪一样").
"""

from solutions.c2_loss_triage import *  # noqa: F403


PASSES = ("missing_line",)


def missing_line(trace):
    lr, norms, at_step = trace["lr"], trace["grad_norm"], trace["grad_norm_at_step"]
    if any(n > 1.0 + 1e-3 for n in at_step):
        return "clip_grad_norm"
    if len(set(lr)) == 1:
        return "scheduler_step"
    if len(norms) >= 2 and all(n >= 1.25 * norms[0] for n in norms[1:]):
        return "zero_grad"
    return "none"
