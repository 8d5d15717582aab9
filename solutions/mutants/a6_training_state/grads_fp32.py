"""Keeps the gradients in fp32 (4 bytes) beside the bf16 weight, fp32 master and fp32 AdamW state:
18 bytes per trainable parameter instead of 16 (2 + 4 + 4 + 4 + 4).

The account asked about in NVIDIA/Megatron-LM issue #654 ("typically 4 bytes allocated for storing
fp16 gradients and parameters and an extra 12 bytes for the optimizer. However, in this script, it
appears to be computed as 18 bytes": "2 bytes for model parameters ..., 4 bytes for main
parameters, 4 bytes for gradients, 8 bytes for Adam states") and in stas00/ml-engineering issue
#23 ("4 bytes * number of parameters for either fp32 or mixed precision training (gradients are
almost always kept in fp32)"); a bf16 model's .grad is bf16, as the real tensors show.
"""

import solutions.a6_training_state as reference
from solutions.a6_training_state import *  # noqa: F401,F403

KILLED_BY = ("full_finetune_bytes", "lora_bytes", "matches_real_tensors")
MISCONCEPTION = "count the gradients in fp32 (4 bytes, 18 in all): a bf16 weight's gradient is bf16 (2 bytes)"

reference.TRAINABLE = {**reference.TRAINABLE, "grads": 4}
