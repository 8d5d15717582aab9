"""The bytes of a real training state (A6, B5, C1, C4): a small random Llama-style model set up in
the bf16 mixed-precision convention for real (a bf16 model, an fp32 master copy of the trainable
parameters, AdamW after one step on it), fully trainable or with peft LoRA adapters. Each part is
the sum of numel x element_size of its tensors (part 4, 16 bytes = 2 + 2 + 4 + 4 + 4)."""

from __future__ import annotations

import warnings
from functools import lru_cache

import torch

from grader.given.tiny_models import build_llama
from grader.i18n import _

PARTS = ("frozen_weights", "weights", "grads", "master", "adam_m", "adam_v")


def _nbytes(tensors) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


@lru_cache(maxsize=32)
def real_state(config_items: tuple, r: int | None, targets, seed: int = 0) -> dict:
    """Set the convention up for real on a tiny model (``config_items``: the sorted items of a
    plain Llama config; ``r=None``: full fine-tuning, else peft LoRA of rank ``r`` on ``targets``).

    Returns ``{"n_frozen", "n_trainable", "parts": {part: bytes} for PARTS, "step_scalars"}``;
    AdamW's per-tensor ``step`` scalars are kept apart (the course's account leaves them out)."""
    config = dict(config_items)
    model = build_llama(config, seed=seed)
    if r is not None:
        from peft import LoraConfig, get_peft_model

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = get_peft_model(
                model, LoraConfig(r=r, target_modules=targets if isinstance(targets, str) else list(targets))
            )
    model = model.to(torch.bfloat16).train()  # the bf16 copy the forward and backward use
    params = list(model.parameters())
    trainable = [p for p in params if p.requires_grad]
    frozen = [p for p in params if not p.requires_grad]
    masters = [p.detach().float().clone().requires_grad_(True) for p in trainable]  # fp32 master weights
    opt = torch.optim.AdamW(masters, lr=1e-3)
    ids = torch.randint(0, config["vocab_size"], (2, 8), generator=torch.Generator().manual_seed(seed))
    model(input_ids=ids, labels=ids, use_cache=False).loss.backward()
    for m, p in zip(masters, trainable, strict=True):
        m.grad = p.grad.float()  # handed to the optimizer for the step, then dropped
    opt.step()
    for m in masters:
        m.grad = None
    states = [opt.state[m] for m in masters]
    if any(set(s) != {"step", "exp_avg", "exp_avg_sq"} for s in states):
        raise RuntimeError(_("AdamW's state changed keys: {set}", set=set(states[0])))
    return _account(frozen, trainable, masters, states)


def _account(frozen, trainable, masters, states) -> dict:
    """Bytes of each part of the training state after one step, read off the real tensors."""
    if any(p.grad is not None for p in frozen) or any(p.grad is None for p in trainable):
        raise RuntimeError(_("the setup is wrong: frozen parameters got gradients or trainable ones none"))
    return {
        "n_frozen": sum(p.numel() for p in frozen),
        "n_trainable": sum(p.numel() for p in trainable),
        "parts": {
            "frozen_weights": _nbytes(frozen),
            "weights": _nbytes(trainable),
            "grads": _nbytes(p.grad for p in trainable),
            "master": _nbytes(masters),
            "adam_m": _nbytes(s["exp_avg"] for s in states),
            "adam_v": _nbytes(s["exp_avg_sq"] for s in states),
        },
        "step_scalars": _nbytes(s["step"] for s in states),  # left out of the account
    }


@lru_cache(maxsize=32)
def peft_default_state(config_items: tuple, r: int, targets, seed: int = 0) -> dict:
    """The same account for peft's own default on a bf16 model: ``get_peft_model`` upcasts the
    adapters to fp32 (``autocast_adapter_dtype=True``), so an adapter parameter is its own fp32
    master copy with an fp32 gradient, and AdamW steps it directly. Same keys as :func:`real_state`
    (``master`` is 0: there is no separate copy)."""
    from peft import LoraConfig, get_peft_model

    config = dict(config_items)
    model = build_llama(config, seed=seed).to(torch.bfloat16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = get_peft_model(
            model, LoraConfig(r=r, target_modules=targets if isinstance(targets, str) else list(targets))
        ).train()
    params = list(model.parameters())
    trainable = [p for p in params if p.requires_grad]
    frozen = [p for p in params if not p.requires_grad]
    opt = torch.optim.AdamW(trainable, lr=1e-3)
    ids = torch.randint(0, config["vocab_size"], (2, 8), generator=torch.Generator().manual_seed(seed))
    model(input_ids=ids, labels=ids, use_cache=False).loss.backward()
    opt.step()
    return _account(frozen, trainable, [], [opt.state[p] for p in trainable])  # no separate master copy
