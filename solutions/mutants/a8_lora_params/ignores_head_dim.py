"""Always takes head_dim = hidden_size // num_attention_heads, ignoring a config's own head_dim
(wrong for Qwen3-style configs where heads x head_dim != hidden_size)."""

from solutions.a8_lora_params import *  # noqa: F403
from solutions import a8_lora_params as _sol

KILLED_BY = ("matches_peft",)


def lora_trainable_params(config, r, target_modules="all-linear"):
    derived = {k: v for k, v in config.items() if k != "head_dim"}
    return _sol.lora_trainable_params(derived, r, target_modules)
