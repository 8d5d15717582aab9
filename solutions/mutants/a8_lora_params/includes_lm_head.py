"""Hooks lm_head too under "all-linear" (peft leaves the output layer out)."""

from solutions.a8_lora_params import *  # noqa: F403
from solutions import a8_lora_params as _sol

KILLED_BY = ("matches_peft", "qwen_0_5b")


def lora_trainable_params(config, r, target_modules="all-linear"):
    n = _sol.lora_trainable_params(config, r, target_modules)
    if target_modules == "all-linear":
        n += r * (config["hidden_size"] + config["vocab_size"])
    return n
