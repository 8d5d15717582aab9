"""Counts AdamW's m and v in the parameters' dtype (bf16, 2 bytes each) and no fp32 master: 8 bytes
per trainable parameter (2 + 2 + 2 + 2), the state of AdamW run directly on bf16 parameters, not
the bf16 mixed-precision convention (fp32 master, fp32 m and v: 16 bytes).

What pytorch/pytorch issue #132855 settled ("If the optimizer was created with fp16/bf16 parameters
and there's no additional logic to store copies of the params, then the optimizer being 2x the size
of the params is expected") and zyushun/Adam-mini issue #17 observed ("AdamW use bf16 for the
optimization state" when the model is loaded in bf16).
"""

import solutions.a6_training_state as reference
from solutions.a6_training_state import *  # noqa: F401,F403

KILLED_BY = ("full_finetune_bytes", "lora_bytes", "matches_real_tensors")
MISCONCEPTION = (
    "keep AdamW's m and v in bf16 with no fp32 master (8 bytes): mixed precision keeps master, m and v in fp32"
)

reference.TRAINABLE = {"weights": 2, "grads": 2, "master": 0, "adam_m": 2, "adam_v": 2}
