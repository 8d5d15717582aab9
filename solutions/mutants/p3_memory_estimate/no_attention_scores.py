"""Leaves the eager attention's (B, heads, T, T) softmax out of the activations (the FlashAttention
account, ~12 x B x T x d per layer with no T^2 term), though the measured model runs eager
attention, which saves those scores for backward.

Dao-AILab/flash-attention issue #899 (the 11sbh + 5as^2b account of standard attention: "there'll
be no term that's quadratic in s" only with flash); NVIDIA-NeMo/Automodel PR #2585 (eager
attention "materializes a full [B, heads, S, S] attention-score tensor and keeps it for backward",
the OOM); Comfy-Org/ComfyUI issue #16021 (memory estimate returns the flash figure when the real
attention path is not flash).
"""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import estimate_training_memory as _reference

KILLED_BY = ("activation_block", "peak_block")
MISCONCEPTION = (
    "leave the (B, heads, T, T) attention scores out of the activations: eager attention saves them for backward"
)


def estimate_training_memory(config, batch_size, seq_len):
    out = _reference(config, batch_size, seq_len)
    h = config["num_attention_heads"]
    scores = 4 * batch_size * config["num_hidden_layers"] * h * seq_len * seq_len
    out["activations"] -= scores
    out["peak"] -= scores
    return out
