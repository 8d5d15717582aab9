"""Disables the adapters instead of merging them (``disable_adapter_layers()``): no LoRA compute at
decode time, but the outputs are the base model's, the fine-tuning is gone.

The suggestion in huggingface/peft issue #208 ("You may try model.disable_adapter_layers()") for
"unloading" LoRA, read as a way to serve it: disabled adapters do not contribute at all.
"""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("merged_logits",)
MISCONCEPTION = "disable the adapter layers instead of merging them: the outputs become the base model's"


def merge_lora(peft_model):
    peft_model.base_model.disable_adapter_layers()
    return peft_model.base_model.model
