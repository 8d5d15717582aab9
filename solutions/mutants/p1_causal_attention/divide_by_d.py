"""Scales the logits by 1/d instead of 1/sqrt(d).

From duoan/TorchCode issue #17 ("Outputs are not correctly checked - [9] Causal Self
Attention"): a submission dividing QK^T by ``d_k`` instead of ``math.sqrt(d_k)`` passed that
site's checks. Right only for d = 1.
"""

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "attention_weights")
MISCONCEPTION = "divide QK^T by d instead of sqrt(d)"


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / d
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(scores, dim=-1), v)
