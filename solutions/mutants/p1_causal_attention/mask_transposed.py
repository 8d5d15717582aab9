"""Masks the wrong triangle (tril instead of triu): each query sees itself and the *future*."""

import math

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "no_future_leak", "attention_weights")


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).tril(-1), float("-inf"))
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
