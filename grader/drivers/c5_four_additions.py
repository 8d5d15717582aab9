"""C5 driver: one accumulated step of the learner's loop on a small char GPT; returns the
gradient the optimizer saw at ``step()`` (flattened) and how often step() and model(x) ran."""

from __future__ import annotations

import torch

from grader.char_model import GPTConfig, build_model

SMALL = GPTConfig(n_layer=1, n_head=2, n_embd=32, block_size=16)


def run_accumulated(learner_module, *, seed: int, config: dict, micro_batches: list) -> dict:
    model = build_model(seed, SMALL)
    optimizer, scheduler = learner_module.configure_optimizer(model, dict(config))
    seen, forwards = [], [0]
    model.register_forward_hook(lambda *_: forwards.__setitem__(0, forwards[0] + 1))
    original = optimizer.step

    def step(*args, **kwargs):
        seen.append(torch.cat([p.grad.detach().flatten().float() if p.grad is not None else torch.zeros(p.numel())
                               for p in model.parameters()]))
        return original(*args, **kwargs)

    optimizer.step = step
    out = learner_module.train_step_accumulated(model, optimizer, scheduler, micro_batches, None)
    return {"out": out, "grads": seen, "forwards": forwards[0]}
