"""Misconception (part 7, §四): activations scale with the parameter count. Estimates them as
twice the weight bytes, whatever B and T are (part 4: they scale with B x T x layers x d)."""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import estimate_training_memory as _reference

KILLED_BY = ("activation_block",)


def estimate_training_memory(config, batch_size, seq_len):
    out = _reference(config, batch_size, seq_len)
    out["activations"] = 2 * out["parameters"]
    return out
