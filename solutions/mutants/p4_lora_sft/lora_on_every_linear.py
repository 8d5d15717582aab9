"""Builds target_modules from every ``nn.Linear`` in the model, as huggingface/peft issue #735
suggests as a workaround ("target_modules = [name for name, layer in model.named_modules() if
isinstance(layer, nn.Linear)]"): that list holds ``lm_head`` too, which "all-linear" leaves out,
so the trainable count is larger than peft's.
"""

import torch

from solutions.p4_lora_sft import *  # noqa: F401,F403

KILLED_BY = ("trainable_params_match_peft",)
MISCONCEPTION = "target every nn.Linear by name (lm_head included): all-linear leaves the output layer out"


def add_lora(model):
    from peft import LoraConfig, get_peft_model

    names = sorted({name.rpartition(".")[2] for name, m in model.named_modules() if isinstance(m, torch.nn.Linear)})
    config = LoraConfig(r=16, lora_alpha=32, lora_dropout=0.0, target_modules=names, task_type="CAUSAL_LM")
    return get_peft_model(model, config)
