"""P2 driver: the course's character Transformer around the learner's loop functions.

Runs in the learner's process, single-threaded (``torch.set_num_threads(1)``: on a shared 2-core
box this is ~10x faster than oversubscribed threads). Two entry points:

- ``run_steps``: builds ``GPT`` from a seed, calls the learner's ``configure_optimizer`` and then
  ``train_step`` once per given batch, and measures what each addition of the loop changes:
  the dtype of every ``nn.Linear`` output (autocast), the logits the model returned (the check
  recomputes the loss from them), and at the moment ``optimizer.step()`` runs: the learning rate,
  the total gradient norm and how many parameters have no gradient; after each step whether
  every ``.grad`` is None and the parameter dtypes.
- ``run_train``: calls the learner's ``train(config)`` and returns the losses and the trained
  weights (the check evaluates them on text the learner never saw).
"""

from __future__ import annotations

import torch

from grader.char_model import build_model


def _grad_norm(params) -> float:
    grads = [p.grad.detach().float().reshape(-1) for p in params if p.grad is not None]
    return float(torch.linalg.vector_norm(torch.cat(grads))) if grads else 0.0


def run_steps(learner_module, *, seed: int, config: dict, batches: list, amp_dtype=None) -> dict:
    torch.set_num_threads(1)
    model = build_model(seed)
    params = list(model.parameters())
    before = [p.detach().clone() for p in params]
    out = learner_module.configure_optimizer(model, dict(config))
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        return {"error": f"configure_optimizer must return (optimizer, scheduler), got {type(out).__name__}"}
    optimizer, scheduler = out
    if not isinstance(optimizer, torch.optim.Optimizer):
        return {"error": f"configure_optimizer returned {type(optimizer).__name__} as the optimizer"}

    at_step: list[dict] = []
    optimizer.register_step_pre_hook(lambda opt, args, kwargs: at_step.append({
        "lr": float(opt.param_groups[0]["lr"]),
        "grad_norm": _grad_norm(params),
        "missing_grads": sum(p.grad is None for p in params),
    }))
    linear_dtypes: set[str] = set()
    for module in model.modules():
        if isinstance(module, torch.nn.Linear):
            module.register_forward_hook(lambda m, a, o: linear_dtypes.add(str(o.dtype).removeprefix("torch.")))
    logits_seen: list = []
    model.register_forward_hook(lambda m, a, o: logits_seen.append(o.detach().clone()))

    steps = []
    for x, y in batches:
        n_opt, n_fwd = len(at_step), len(logits_seen)
        result = learner_module.train_step(model, optimizer, scheduler, (x, y), amp_dtype)
        if not isinstance(result, dict):
            return {"error": f"train_step must return a dict, got {type(result).__name__}"}
        steps.append({
            "loss": result.get("loss"),
            "grad_norm": result.get("grad_norm"),
            "optimizer_steps": len(at_step) - n_opt,
            "at_step": at_step[n_opt] if len(at_step) > n_opt else None,
            "logits": logits_seen[n_fwd] if len(logits_seen) > n_fwd else None,
            "grads_none_after": all(p.grad is None for p in params),
            "grads_held_after": sum(p.grad is not None for p in params),
            "grads_nonzero_after": sum(p.grad is not None and bool(p.grad.any()) for p in params),
        })
    return {
        "optimizer": type(optimizer).__name__,
        "steps": steps,
        "linear_output_dtypes": sorted(linear_dtypes),
        "param_dtypes": sorted({str(p.dtype).removeprefix("torch.") for p in model.parameters()}),
        "params_changed": sum(not torch.equal(b.to(p.dtype), p.detach()) for b, p in zip(before, params)),
        "n_params": len(params),
    }


def run_train(learner_module, *, config: dict) -> dict:
    torch.set_num_threads(1)
    out = learner_module.train(dict(config))
    if not (isinstance(out, (tuple, list)) and len(out) == 2 and isinstance(out[0], torch.nn.Module)):
        return {"error": f"train must return (model, losses), got {type(out).__name__}"}
    model, losses = out
    state = {k: v.detach().float().clone() for k, v in model.state_dict().items()}
    return {"losses": [float(v) for v in losses], "state_dict": state}
