"""Calls ``peft_model.merge_adapter()`` and returns the peft model: the weights are merged, but the
wrapper and the LoRA modules stay (merge_adapter is undone by unmerge_adapter), so the model keeps
more parameters than the base and is not a plain model for serving.

The pair of methods huggingface/peft issue #2437 discusses ("merge and unmerge adapters ... the
method was not removed, it's just called unmerge_adapter"): merge_and_unload() is the one that
unloads.
"""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("merged_logits",)
MISCONCEPTION = "call merge_adapter() and keep the wrapper: merge_and_unload() also removes the LoRA modules"


def merge_lora(peft_model):
    peft_model.merge_adapter()
    return peft_model
