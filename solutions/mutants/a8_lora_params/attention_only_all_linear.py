"""Reads "all-linear" as all the attention projections (q, k, v, o) and leaves the MLP out.

The reading of peft's per-model defaults that huggingface/peft issue #735 describes ("these are
restricted to attention-related attributes. It would be great if all linear layers are also
included"); peft's "all-linear" hooks the MLP's gate/up/down too.
"""

from solutions.a8_lora_params import *  # noqa: F401,F403
from solutions.a8_lora_params import lora_trainable_params as _right

KILLED_BY = ("matches_peft", "qwen_0_5b")
MISCONCEPTION = "take all-linear to mean the attention projections only (q, k, v, o): the MLP's three linears count too"


def lora_trainable_params(config, r, target_modules="all-linear"):
    if target_modules == "all-linear":
        target_modules = ["q_proj", "k_proj", "v_proj", "o_proj"]
    return _right(config, r, target_modules)
