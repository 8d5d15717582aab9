"""Merges by hand as W + B A, forgetting the alpha/r scaling (2.0 for r=16, alpha=32)."""

import torch

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("merged_logits",)


def merge_lora(peft_model):
    with torch.no_grad():
        for module in peft_model.modules():
            if hasattr(module, "lora_A") and hasattr(module, "base_layer") and "default" in module.lora_A:
                module.base_layer.weight += module.lora_B["default"].weight @ module.lora_A["default"].weight
    return peft_model.unload()
