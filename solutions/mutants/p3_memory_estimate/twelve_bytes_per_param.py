"""12 bytes per parameter: one optimizer moment instead of AdamW's two (4 + 4 + 4 in fp32, and
2 + 2 + 4 + 4 = 12 instead of 16 under mixed precision) (part 4, must-remember 16 bytes)."""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import course_memory_gb as _course
from solutions.p3_memory_estimate import estimate_training_memory as _reference
from solutions.p3_memory_estimate import parameter_count

KILLED_BY = ("state_blocks", "course_llama3_8b")
MISCONCEPTION = "keep one optimizer moment per parameter: AdamW keeps two"


def estimate_training_memory(config, batch_size, seq_len):
    out = _reference(config, batch_size, seq_len)
    out["peak"] -= out["optimizer_state"] // 2
    out["optimizer_state"] //= 2
    return out


def course_memory_gb(config, lora_r=16):
    out = _course(config, lora_r)
    out["full"] = parameter_count(config) * 12 / 1e9
    return out
