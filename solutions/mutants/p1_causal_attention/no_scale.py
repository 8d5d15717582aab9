"""Forgets the 1/sqrt(d) scale: softmax(QK^T) instead of softmax(QK^T / sqrt(d))."""

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "attention_weights")


def causal_attention(q, k, v):
    T = q.shape[-2]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
