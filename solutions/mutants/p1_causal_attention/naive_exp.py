"""Naive softmax: exp(scores) / sum without subtracting the row maximum.

Right on ordinary inputs; large logits overflow exp (float32 beyond ~88, float64 beyond ~709)
and inf / inf gives NaN.
"""

import math

import torch

KILLED_BY = ("large_logits",)


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    weights = scores.exp()
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
