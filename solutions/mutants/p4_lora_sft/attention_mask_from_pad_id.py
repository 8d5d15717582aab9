"""Builds the attention mask as ``input_ids != pad_id`` and masks the labels where it is 0: with
pad = EOS the real EOS gets attention 0 and label -100, so the model never learns to stop.

What huggingface/trl issue #1623 ("Learning to generate EOS tokens") found: "Notice how the pad
token / eos token corresponds to attention mask = 0"; also mlabonne/llm-course issue #33
("Issue with pad_token == eos_token: model not learning when to stop").
"""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import collate as _collate

KILLED_BY = ("label_at_eos_when_pad_is_eos",)
MISCONCEPTION = "derive the attention mask from input_ids != pad_id: with pad = EOS the real EOS is masked out"


def collate(examples, pad_id):
    batch = _collate(examples, pad_id)
    mask = (batch["input_ids"] != pad_id).long()
    labels = batch["labels"].masked_fill(mask == 0, -100)
    return {"input_ids": batch["input_ids"], "attention_mask": mask, "labels": labels}
