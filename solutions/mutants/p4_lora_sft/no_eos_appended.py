"""Never appends the EOS id: every row ends with the answer, one token short of the reference,
so there is no EOS label for the model to learn to stop on.

The data path of tatsu-lab/stanford_alpaca issue #126 ("eos token missing during training ...
the model is never trained to produce eos after the response ends") and huggingface/trl issue
#931 ("there is no eos_token in the input_ids ... the model can not stop during inference").
"""

from solutions.p4_lora_sft import *  # noqa: F401,F403
from solutions.p4_lora_sft import encode_example as _encode

KILLED_BY = ("data_path_labels", "label_at_eos", "label_at_eos_when_pad_is_eos")
MISCONCEPTION = "leave the EOS id out: every row ends with the answer, one token short, with no EOS label"


def encode_example(tokenizer, question, answer, eos_id):
    e = _encode(tokenizer, question, answer, eos_id)
    return {"input_ids": e["input_ids"][:-1], "labels": e["labels"][:-1]}
