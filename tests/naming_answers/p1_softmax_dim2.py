"""softmax(dim=2) on the [B, H, T, T] scores: the query axis, not the key axis (part 7 §四: "沿错轴的 softmax
形状照样对")."""

import math

import torch

EXERCISE, CAUGHT_BY, NAMES = "P1", ("float64_matches_sdpa",), "normalizes over the queries"


def causal_attention(q, k, v):
    T = q.shape[-2]
    s = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(q.shape[-1])
    s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(s, dim=2), v)
