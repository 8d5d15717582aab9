"""Adds DoRA's magnitude vector (out_features trainable values per hooked linear) to the LoRA count:
right for ``LoraConfig(use_dora=True)``, not for the plain LoRA the stub asks about.

unslothai/unsloth issue #182 ("DoRA ... Requires adding one trainable parameter (W magnitude, m)
per layer"), and huggingface/peft PR #1474 (``lora_magnitude_vector`` only when use_dora).
"""

from solutions.a8_lora_params import *  # noqa: F401,F403
from solutions.a8_lora_params import LINEAR_MODULES, linear_shapes
from solutions.a8_lora_params import lora_trainable_params as _right

KILLED_BY = ("matches_peft", "qwen_0_5b")
MISCONCEPTION = "add DoRA's magnitude vector (out_features per layer): plain LoRA has only A and B"


def lora_trainable_params(config, r, target_modules="all-linear"):
    names = LINEAR_MODULES if target_modules == "all-linear" else tuple(target_modules)
    s = linear_shapes(config)
    return _right(config, r, target_modules) + sum(s[n][1] for n in names) * config["num_hidden_layers"]
