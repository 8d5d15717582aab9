"""Counts the model weights and gradients at 4 bytes each on top of the fp32 master and Adam states
(4 + 4 + 4 + 4 + 4 = 20 bytes per trainable parameter) under bf16 mixed precision.

The estimator bug deepspeedai/DeepSpeed PR #5099 fixed ("estimate_zero2_model_states_mem_needs ...
was considering 4 bytes per model param, and 4 bytes per gradient. fixed it to 2 bytes - under the
assumption of FP16/BF16").
"""

import solutions.c1_70b_plan as reference
from solutions.c1_70b_plan import *  # noqa: F401,F403

KILLED_BY = ("bytes_per_param_parts", "full_finetune_total")
MISCONCEPTION = "count the bf16 weights and gradients at 4 bytes each: mixed precision keeps them at 2"

reference.PARTS = {"weights": 4, "grads": 4, "master": 4, "adam_m": 4, "adam_v": 4}
