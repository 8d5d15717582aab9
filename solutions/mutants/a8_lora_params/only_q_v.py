"""Counts only q_proj and v_proj (the old peft default for Llama) even for "all-linear"."""

from solutions.a8_lora_params import *  # noqa: F403
from solutions.a8_lora_params import linear_shapes

KILLED_BY = ("matches_peft", "qwen_0_5b")


def lora_trainable_params(config, r, target_modules="all-linear"):
    names = ("q_proj", "v_proj") if target_modules == "all-linear" else tuple(target_modules)
    shapes = linear_shapes(config)
    return sum(r * sum(shapes[n]) for n in names) * config["num_hidden_layers"]
