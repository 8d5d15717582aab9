"""Drops clip_grad_norm_: one bad batch's huge gradient goes straight into the step
(part 3 addition 3). Reports the norm it would have clipped."""

import torch

import solutions.p2_training_loop as reference
from solutions.p2_training_loop import *  # noqa: F401,F403

KILLED_BY = ("step_gradient",)


def _norm_without_clipping(model):
    return torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1) for p in model.parameters()]))


reference.clip_gradients = _norm_without_clipping
