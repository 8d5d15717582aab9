"""Reads a large pre-clip norm as missing clipping, though clipping ran (the norm at step is 1).

The reading behind hiyouga/LlamaFactory issue #3996 ("max_grad_norm 在sft下面不起作用": norms above
max_grad_norm are still logged; the maintainer: "这里记录的是 clip 之前的 norm", the logged norm is
the one before clipping) and verl-project/verl issue #2282 ("grad_norm is higher than the clip_grad
value"; "This is expected because grad_norm is the one before clip").
"""

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("missing_line",)
MISCONCEPTION = (
    "read the norm right after backward() (before clipping) as the norm the step used: look at the norm at step"
)


def missing_line(trace):
    if len(set(trace["lr"])) == 1:
        return "scheduler_step"
    if any(n > 1.0 + 1e-3 for n in trace["grad_norm"]):
        return "clip_grad_norm"
    return "none"
