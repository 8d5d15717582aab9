"""Gives every frozen parameter an fp32 copy beside its bf16 weight (2 + 4 = 6 bytes), as an
optimizer that builds its flat buffers over all parameters does.

The regression deepspeedai/DeepSpeed PR #8029 fixed ("FP16_Optimizer ... allocate bf16 and fp32
flat buffers for every parameter in a group, regardless of requires_grad. With LoRA/PEFT ... both
buffers are allocated for billions of frozen weights"); a frozen base needs its bf16 weight only.
"""

import solutions.a6_training_state as reference
from solutions.a6_training_state import *  # noqa: F401,F403

KILLED_BY = ("lora_bytes", "matches_real_tensors")
MISCONCEPTION = "give frozen parameters an fp32 master copy too (6 bytes): a frozen base keeps its bf16 weight only"

reference.FROZEN = 6
