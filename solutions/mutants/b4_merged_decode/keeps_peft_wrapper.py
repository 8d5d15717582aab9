"""Merges but returns the peft wrapper with the adapters still in place (``merge_adapter()``):
the logits match, but the served model still carries the LoRA parameters."""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("merged_logits",)


def merge_lora(peft_model):
    peft_model.merge_adapter()
    return peft_model
