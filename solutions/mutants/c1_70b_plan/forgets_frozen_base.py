"""LoRA counts only the adapters' 16 bytes: the frozen bf16 base (140 GB for 70B) is forgotten."""

from solutions.c1_70b_plan import *  # noqa: F403
from solutions.c1_70b_plan import state_bytes as _state_bytes

KILLED_BY = ("lora_total",)


def state_bytes(n_base, n_adapter, method):
    if method == "lora":
        return 16 * n_adapter
    return _state_bytes(n_base, n_adapter, method)
