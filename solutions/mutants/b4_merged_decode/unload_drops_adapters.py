"""Calls ``unload()`` instead of ``merge_and_unload()``: the LoRA layers are removed WITHOUT
being merged, so the served model is the base model and the fine-tuning is lost."""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("merged_logits",)


def merge_lora(peft_model):
    return peft_model.unload()
