"""LoRA counts only the adapters' 16 bytes: the frozen bf16 base (140 GB for 70B) is forgotten."""

from solutions.c1_70b_plan import *  # noqa: F403
from solutions.mutants.c1_70b_plan import _frozen_base

KILLED_BY = ("lora_total",)


def state_bytes(n_base, n_adapter, method):
    return _frozen_base.state_bytes(n_base, n_adapter, method, wrong_for="lora", base_bytes_per_param=0)
