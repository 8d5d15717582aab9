"""Counts the frozen base at 4 bytes per parameter, as a model ``from_pretrained`` without a dtype
holds it (float32), instead of its bf16 copy (2 bytes).

The default huggingface/transformers issue #34743 reports ("Unexpected 2x cpu memory usage due to
bf16 safetensor loaded as float32": a bf16 checkpoint loaded without ``torch_dtype`` is fp32);
the course's LoRA account keeps the base in bf16.
"""

import solutions.a6_training_state as reference
from solutions.a6_training_state import *  # noqa: F401,F403

KILLED_BY = ("lora_bytes", "matches_real_tensors")
MISCONCEPTION = "count the frozen base at 4 bytes (an fp32 load) instead of its bf16 copy (2 bytes)"

reference.FROZEN = 4
