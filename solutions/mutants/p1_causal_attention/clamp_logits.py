"""Avoids overflow by clamping the logits to [-30, 30] instead of subtracting the row maximum.

No NaN any more, but large logits are flattened: the weights no longer match the softmax.
"""

import math

import torch

KILLED_BY = ("large_logits",)


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = (torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)).clamp(-30, 30)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    weights = scores.exp()
    weights = weights / weights.sum(dim=-1, keepdim=True)
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
