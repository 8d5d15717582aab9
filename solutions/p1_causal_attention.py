"""P1 — causal attention in einsum (part 1 overview §八; part 2, einsum)."""

import math

import torch


def causal_attention(q, k, v):
    """softmax over keys of masked QK^T / sqrt(d), times V; shapes (batch, heads, T, d)."""
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)  # (b, h, T query, T key)
    future = torch.ones(T, T, dtype=torch.bool).triu(1)  # key s > query t
    scores = scores.masked_fill(future, float("-inf"))
    scores = scores - scores.amax(dim=-1, keepdim=True)  # max-subtraction: exp never overflows
    weights = scores.exp()
    weights = weights / weights.sum(dim=-1, keepdim=True)  # softmax over the key axis
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
