"""Counts r * in * out per linear (as if A and B were the full d x d matrix times r), not r * (in + out)."""

from solutions.a8_lora_params import *  # noqa: F403
from solutions.a8_lora_params import LINEAR_MODULES, linear_shapes

KILLED_BY = ("matches_peft", "qwen_0_5b")


def lora_trainable_params(config, r, target_modules="all-linear"):
    names = LINEAR_MODULES if target_modules == "all-linear" else tuple(target_modules)
    shapes = linear_shapes(config)
    return sum(r * shapes[n][0] * shapes[n][1] for n in names) * config["num_hidden_layers"]
