"""Shifts the labels by one by hand (labels[t] = token t+1) although the model already shifts
inside: every label is one position early, and the EOS label sits before the EOS."""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import encode_example as _encode

KILLED_BY = ("data_path_labels", "label_at_eos")


def encode_example(tokenizer, question, answer, eos_id):
    e = _encode(tokenizer, question, answer, eos_id)
    e["labels"] = e["labels"][1:] + [-100]
    return e
