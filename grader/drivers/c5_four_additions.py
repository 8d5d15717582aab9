"""C5 driver: one accumulated step of the learner's loop on a small char GPT with the check's
optimizer (SGD lr=1, grader/drivers/p2_training_loop.py:unit_sgd), so the weights after the step
are the initial weights minus the gradient the step used. Returns those weights (the check
compares them with its own clipped full-batch gradient) and, only ever a reason to fail, how
often optimizer.step() and model(x) ran. The model is :func:`follow_up_model`, with the
``head_scale`` the check asks for (the check builds the same one)."""

from __future__ import annotations

import torch

from grader.drivers.p2_training_loop import SMALL, count_steps, named_params, unit_sgd
from grader.given.char_model import build_model


def follow_up_model(seed: int, head_scale: float):
    """``build_model(seed, SMALL)`` with its ``lm_head`` weight multiplied by ``head_scale``."""
    model = build_model(seed, SMALL)
    with torch.no_grad():
        model.lm_head.weight.mul_(head_scale)
    return model


def run_accumulated(learner_module, *, seed: int, micro_batches: list, head_scale: float = 1.0) -> dict:
    torch.set_num_threads(1)
    model = follow_up_model(seed, head_scale)
    optimizer, scheduler = unit_sgd(model)
    steps, forwards = count_steps(optimizer), [0]
    model.register_forward_hook(lambda *_: forwards.__setitem__(0, forwards[0] + 1))
    out = learner_module.train_step_accumulated(model, optimizer, scheduler, micro_batches, None)
    return {"out": out, "params": named_params(model), "optimizer_steps": steps[0], "forwards": forwards[0]}
