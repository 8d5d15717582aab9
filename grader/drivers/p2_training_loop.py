"""P2 driver: the course's character Transformer around the learner's loop functions.

Runs in the learner's process, single-threaded (``torch.set_num_threads(1)``: on a shared 2-core
box this is ~10x faster than oversubscribed threads, and the check process computes its ground
truth with the same kernels). It returns only what the learner's code produced: the values
``train_step`` returned and the weights after each step. Nothing here is the basis of a pass:
the check recomputes every expected value in its own process (the learner's code could replace
these functions). Two entry points:

- ``run_steps``: builds ``GPT`` from a seed (``small``: the 1-layer ``SMALL`` config), takes the
  learner's ``configure_optimizer`` or, with ``optimizer="unit_sgd"``, :func:`unit_sgd` (so a
  step moves the weights by exactly minus the gradient ``train_step`` left in ``.grad``), and
  calls ``train_step`` once per batch; ``reset`` puts the initial weights back, clears
  ``.grad`` and the optimizer state before each call (every step then starts from the same
  fresh model while the scheduler keeps counting). Counted along the way, only ever a reason to
  fail: ``optimizer.step()`` calls per ``train_step`` and ``.grad`` fields left after it.
- ``run_train``: calls the learner's ``train(config)`` and returns the losses and the trained
  weights (the check evaluates them on text the learner never saw).
"""

from __future__ import annotations

import torch

from grader.given.char_model import GPTConfig, build_model

SMALL = GPTConfig(n_layer=1, n_head=2, n_embd=32, block_size=16)  # 22k parameters: cheap loops


def unit_sgd(model):
    """SGD(lr=1, no momentum, no weight decay) with a constant schedule: one ``step()`` moves each
    parameter by exactly minus its ``.grad`` (parameters without ``.grad`` do not move)."""
    optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
    return optimizer, torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0)


def count_steps(optimizer) -> list[int]:
    """A one-element list that counts ``optimizer.step()`` calls."""
    calls = [0]
    optimizer.register_step_pre_hook(lambda *_: calls.__setitem__(0, calls[0] + 1))
    return calls


def named_params(model) -> dict:
    return {name: p.detach().clone() for name, p in model.named_parameters()}


def run_steps(
    learner_module,
    *,
    seed: int,
    config: dict,
    batches: list,
    amp_dtype=None,
    optimizer: str = "learner",
    reset: bool = False,
    small: bool = False,
    return_params: bool = False,
) -> dict:
    torch.set_num_threads(1)
    model = build_model(seed, SMALL if small else None)
    params = list(model.parameters())
    initial = named_params(model)
    if optimizer == "unit_sgd":
        opt, scheduler = unit_sgd(model)
    else:
        out = learner_module.configure_optimizer(model, dict(config))
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            return {"error": f"configure_optimizer must return (optimizer, scheduler), got {type(out).__name__}"}
        opt, scheduler = out
        if not isinstance(opt, torch.optim.Optimizer):
            return {"error": f"configure_optimizer returned {type(opt).__name__} as the optimizer"}
    calls = count_steps(opt)

    steps = []
    for x, y in batches:
        if reset:
            with torch.no_grad():
                for name, p in model.named_parameters():
                    p.copy_(initial[name])
                    p.grad = None
            opt.state.clear()
        before = calls[0]
        result = learner_module.train_step(model, opt, scheduler, (x, y), amp_dtype)
        if not isinstance(result, dict):
            return {"error": f"train_step must return a dict, got {type(result).__name__}"}
        rec = {
            "loss": result.get("loss"),
            "grad_norm": result.get("grad_norm"),
            "optimizer_steps": calls[0] - before,
            "grads_held_after": sum(p.grad is not None for p in params),
            "grads_nonzero_after": sum(p.grad is not None and bool(p.grad.any()) for p in params),
        }
        if return_params:
            rec["params"] = named_params(model)
            # what .grad holds after the call (None, or a tensor): the check compares it with the step's move
            rec["grads"] = {
                name: None if p.grad is None else p.grad.detach().clone() for name, p in model.named_parameters()
            }
        steps.append(rec)
    return {"steps": steps, "n_params": len(params)}


def run_train(learner_module, *, config: dict) -> dict:
    torch.set_num_threads(1)
    out = learner_module.train(dict(config))
    if not (isinstance(out, (tuple, list)) and len(out) == 2 and isinstance(out[0], torch.nn.Module)):
        return {"error": f"train must return (model, losses), got {type(out).__name__}"}
    model, losses = out
    state = {k: v.detach().float().clone() for k, v in model.state_dict().items()}
    return {"losses": [float(v) for v in losses], "state_dict": state}
