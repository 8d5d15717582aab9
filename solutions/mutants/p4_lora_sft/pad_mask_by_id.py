"""Masks padding by token id (``labels[input_ids == pad_id] = -100``, as Hugging Face's
DataCollatorForLanguageModeling does). Right while pad != EOS; with ``pad_token = eos_token``
it silently masks every real EOS too."""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import collate as _collate

KILLED_BY = ("label_at_eos_when_pad_is_eos",)
MISCONCEPTION = "mask the padding by token id: with the pad id equal to EOS, every real EOS is masked too"


def collate(examples, pad_id):
    batch = _collate(examples, pad_id)
    batch["labels"][batch["input_ids"] == pad_id] = -100
    return batch
