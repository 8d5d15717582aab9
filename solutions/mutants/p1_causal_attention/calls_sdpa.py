"""Calls F.scaled_dot_product_attention itself, which the stub forbids: the output is exact.

The rule is the usual one of from-scratch attention exercises: TorchLeet's "Implement Attention
from Scratch" (https://github.com/nisaral/TorchLeet_ML_Implementations) says "Do NOT use
F.scaled_dot_product_attention inside your custom function — that defeats the whole point".
Reached through ``getattr`` so that only the watch in the learner's process sees it (the
source scan is tested in tests/test_feedback.py).
"""

import torch.nn.functional as F

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "no_future_leak", "attention_weights", "large_logits")
_FUSED = "scaled_dot" + "_product_attention"


def causal_attention(q, k, v):
    return getattr(F, _FUSED)(q, k, v, is_causal=True)
