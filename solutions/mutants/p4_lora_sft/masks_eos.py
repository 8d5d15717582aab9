"""Masks the EOS label to -100 (the course's bug, part 5): only the answer tokens are in the loss.
The loss falls and the model learns the capitals, but it never learns to stop."""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import encode_example as _encode

KILLED_BY = ("label_at_eos", "label_at_eos_when_pad_is_eos", "answers_and_stops")
MISCONCEPTION = "leave the EOS label out of the loss: the model learns the answers but never learns to stop"


def encode_example(tokenizer, question, answer, eos_id):
    e = _encode(tokenizer, question, answer, eos_id)
    e["labels"][-1] = -100
    return e
