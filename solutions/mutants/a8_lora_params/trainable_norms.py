"""Also counts the RMSNorm weights (two per layer + the final one) as trainable: the base is not
fully frozen in this count, so it is no longer proportional to r."""

from solutions.a8_lora_params import *  # noqa: F403
from solutions import a8_lora_params as _sol

KILLED_BY = ("change_with_r", "matches_peft", "qwen_0_5b")


def lora_trainable_params(config, r, target_modules="all-linear"):
    norms = (2 * config["num_hidden_layers"] + 1) * config["hidden_size"]
    return _sol.lora_trainable_params(config, r, target_modules) + norms
