"""Forgets the optimizer state: counts weights, gradients and activations only (part 4: AdamW's
two fp32 moments are 8 of the 16 bytes per parameter)."""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import estimate_training_memory as _reference

KILLED_BY = ("state_blocks", "peak_block")
MISCONCEPTION = "forget the optimizer state: AdamW keeps two moments for every parameter"


def estimate_training_memory(config, batch_size, seq_len):
    out = _reference(config, batch_size, seq_len)
    out["peak"] -= out["optimizer_state"]
    out["optimizer_state"] = 0
    return out
