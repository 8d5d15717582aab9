"""Keeps the LoRA base in fp32 (4 bytes per parameter), as ``from_pretrained`` without a dtype loads
it: the 70B LoRA state is ~300 GB instead of ~155 GB.

huggingface/transformers issue #34743 ("Unexpected 2x cpu memory usage due to bf16 safetensor loaded
as float32"): the plan's LoRA base is the bf16 copy, 2 bytes per parameter.
"""

from solutions.c1_70b_plan import *  # noqa: F401,F403
from solutions.mutants.c1_70b_plan import _frozen_base

KILLED_BY = ("lora_total",)
MISCONCEPTION = "count the frozen LoRA base at fp32 (4 bytes): the plan loads it in bf16 (2 bytes)"


def state_bytes(n_base, n_adapter, method):
    return _frozen_base.state_bytes(n_base, n_adapter, method, wrong_for="lora", base_bytes_per_param=4)
