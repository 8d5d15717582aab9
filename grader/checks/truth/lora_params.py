"""LoRA parameter counts as peft itself makes them (A8, P3): ``get_peft_model`` on a Llama built
on the meta device (no memory), counting the parameters left with ``requires_grad``."""

from __future__ import annotations

import warnings
from functools import lru_cache

from grader.given.tiny_models import build_llama


def peft_trainable(config: dict, r: int, target_modules="all-linear") -> int:
    """What peft makes trainable for a plain Llama config, LoRA rank ``r`` on ``target_modules``."""
    return _peft_trainable(
        tuple(sorted(config.items())), r, target_modules if isinstance(target_modules, str) else tuple(target_modules)
    )


@lru_cache(maxsize=64)
def _peft_trainable(config_items, r, target_modules) -> int:
    from peft import LoraConfig, get_peft_model

    model = build_llama(dict(config_items), device="meta")
    tm = target_modules if isinstance(target_modules, str) else list(target_modules)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peft_model = get_peft_model(model, LoraConfig(r=r, target_modules=tm))
    return sum(p.numel() for p in peft_model.parameters() if p.requires_grad)
