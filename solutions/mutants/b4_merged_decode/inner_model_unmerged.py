"""Returns the model inside the peft wrapper (``peft_model.base_model.model``) without merging: the
same logits, but the LoRA layers are still in it, computing B A x on every token at decode time.

The confusion of huggingface/peft issue #868 (``model = trainer.model.base_model`` taken for the
plain model) and trl issue #868 ("What is the difference of these two saved checkpoints"): only
merge_and_unload() folds the adapters into the weights and removes the LoRA modules.
"""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("merged_logits",)
MISCONCEPTION = "take the model inside the peft wrapper without merging: the LoRA layers are still there"


def merge_lora(peft_model):
    return peft_model.base_model.model
