"""Misconception (part 4): the peak is the 16-bytes-per-parameter account alone. Leaves the
activations out of the peak (part 4: "activations are outside the account, and can be larger than
weights and state together"). On a GPU, cuda_peak catches it too."""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import estimate_training_memory as _reference

KILLED_BY = ("peak_block",)
MISCONCEPTION = (
    "take the state's account for the peak: the activations are outside it and alive at the start of backward"
)


def estimate_training_memory(config, batch_size, seq_len):
    out = _reference(config, batch_size, seq_len)
    out["peak"] = out["parameters"] + out["gradients"] + out["optimizer_state"]
    return out
