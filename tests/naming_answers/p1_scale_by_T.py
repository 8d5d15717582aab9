"""Scales the scores by 1/sqrt(T), the sequence length, not the head dim: no property describes it (not named)."""

import math

import torch

EXERCISE, CAUGHT_BY, NAMES = "P1", ("float64_matches_sdpa",), None


def causal_attention(q, k, v):
    T = q.shape[-2]
    s = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(T)
    s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(s, dim=-1), v)
