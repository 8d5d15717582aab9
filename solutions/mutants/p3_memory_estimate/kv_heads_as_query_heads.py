"""Ignores grouped-query attention: sizes k_proj and v_proj like q_proj (heads x head_dim each)
instead of ``num_key_value_heads`` x head_dim, so a GQA model's attention weights, gradients and
AdamW state are over-counted.

jranaraki/vllm-fit issues #8 / #20 ("Parameter-count heuristic ignores gated MLP (3 matrices) and
GQA": "make attention GQA-aware"); nod-ai/AMD-SHARK-ModelDev PR #388 ("Models with GQA implemented
would not have the same number of heads for K,V vs Query").
"""

import solutions.p3_memory_estimate as reference
from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import _dims as _reference_dims

KILLED_BY = ("state_blocks",)
MISCONCEPTION = (
    "size k_proj and v_proj like q_proj: with GQA they have num_key_value_heads x head_dim outputs, "
    "not num_attention_heads x head_dim"
)


def _dims(config):
    d, h, kv, hd, ff, L, V = _reference_dims(config)
    return d, h, h, hd, ff, L, V


reference._dims = _dims
