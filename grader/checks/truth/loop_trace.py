"""Short real runs of the training loop with lines left out, as C2 triages them (and the quiz)."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from grader.checks.truth.first_loss import SMALL, char_batch
from grader.given.char_model import build_model

LINES = ("none", "scheduler_step", "clip_grad_norm", "zero_grad")  # what a trace may leave out ("none": nothing)


def real_trace(seed: int, missing, steps: int = 6) -> dict:
    """A real short run of the loop on one repeated batch with ``missing`` removed (a line's name,
    or a tuple of names)."""
    missing = (missing,) if isinstance(missing, str) else tuple(missing)
    model = build_model(seed % 10_000, SMALL)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / 20)  # warmup: the lr changes every step
    x, y = char_batch(seed)

    def grad_norm():
        return torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in model.parameters()]))

    F.cross_entropy(model(x).view(-1, SMALL.vocab_size), y.view(-1)).backward()
    scale = 2.0 / float(grad_norm())  # the loss is scaled so the first gradient norm is 2: clipping matters
    model.zero_grad(set_to_none=True)
    trace = {"lr": [], "grad_norm": [], "grad_norm_at_step": []}
    for _ in range(steps):
        logits = model(x)
        loss = scale * F.cross_entropy(logits.float().view(-1, SMALL.vocab_size), y.view(-1), ignore_index=-100)
        loss.backward()
        norm = grad_norm()
        if "clip_grad_norm" not in missing:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        at = grad_norm()
        trace["lr"].append(opt.param_groups[0]["lr"])
        trace["grad_norm"].append(float(norm))
        trace["grad_norm_at_step"].append(float(at))
        opt.step()
        if "scheduler_step" not in missing:
            sched.step()
        if "zero_grad" not in missing:
            opt.zero_grad(set_to_none=True)
    return trace
