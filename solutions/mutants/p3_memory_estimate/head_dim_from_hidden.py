"""Derives the head size as ``hidden_size // num_attention_heads`` and ignores the config's
``head_dim``: wrong whenever the two differ (Qwen3-4B: d=2560, 32 heads, head_dim=128; Gemma-7B:
d=3072, 16 heads, head_dim=256), so the q/k/v/o projections and the attention activations are
mis-sized.

pytorch/torchtitan issue #1920 ("head_dim is not necessarily equal to dim / n_heads", in its FLOP
count); elixir-nx/bumblebee PR #364 (Gemma's v/o kernels expected (3072, 3072), got (3072, 4096));
eole-nlp/eole PR #78 ("I had hard time to find out why 551M params" — head_dim 128 != 1024 // 16).
"""

import solutions.p3_memory_estimate as reference
from solutions.p3_memory_estimate import *  # noqa: F401,F403

KILLED_BY = ("state_blocks",)
MISCONCEPTION = (
    "take the head size as hidden_size // num_attention_heads: the config's head_dim may differ, "
    "and q/k/v/o are heads x head_dim wide"
)


def _dims(config):
    d = config["hidden_size"]
    n_heads = config["num_attention_heads"]
    n_kv = config.get("num_key_value_heads") or n_heads
    return (
        d,
        n_heads,
        n_kv,
        d // n_heads,
        config["intermediate_size"],
        config["num_hidden_layers"],
        config["vocab_size"],
    )


reference._dims = _dims
