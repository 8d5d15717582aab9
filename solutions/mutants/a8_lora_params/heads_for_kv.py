"""Uses num_attention_heads for the width of k_proj / v_proj: ignores GQA's fewer kv heads."""

from solutions.a8_lora_params import *  # noqa: F403
from solutions import a8_lora_params as _sol

KILLED_BY = ("matches_peft", "qwen_0_5b")


def lora_trainable_params(config, r, target_modules="all-linear"):
    mha = dict(config, num_key_value_heads=config["num_attention_heads"])
    return _sol.lora_trainable_params(mha, r, target_modules)
