"""Asks whether clipping ran before asking whether the lr changes: a run without the scheduler
and without the clip is reported as "clip_grad_norm".

The ordering slip of the zero_grad one, one line up (see zero_grad_before_clip.py); the C2
answer's triage order comes from the course, and a trace of a real run with two lines
missing is where it shows: DINO's training loop lost its zero_grad on one path only
(IDEA-Research/DINO issue #20), so two slips in one loop are no rarity.
"""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("missing_line",)
MISCONCEPTION = "test for a missing clip before testing whether the learning rate changes"


def missing_line(trace):
    lr, norms, at_step = trace["lr"], trace["grad_norm"], trace["grad_norm_at_step"]
    if any(n > 1.0 + 1e-3 for n in at_step):
        return "clip_grad_norm"
    if len(set(lr)) == 1:
        return "scheduler_step"
    if len(norms) >= 2 and all(n >= 1.25 * norms[0] for n in norms[1:]):
        return "zero_grad"
    return "none"
