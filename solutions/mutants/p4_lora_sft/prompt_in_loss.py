"""Labels = input_ids: the prompt is in the loss too (no -100 on it), so the model is also
trained to write questions. The masked fraction is then only the padding."""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import encode_example as _encode

KILLED_BY = ("data_path_labels",)


def encode_example(tokenizer, question, answer, eos_id):
    e = _encode(tokenizer, question, answer, eos_id)
    e["labels"] = list(e["input_ids"])
    return e
