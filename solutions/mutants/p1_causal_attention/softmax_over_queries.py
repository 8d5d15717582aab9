"""Softmax along the wrong axis: normalizes over queries (dim -2) instead of keys (dim -1).

Shapes are all right, so it runs; the numbers are wrong ("softmax on the wrong axis" of part 2),
and a key's column sums over later queries, so the future leaks into the past.
"""

import math

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "no_future_leak", "attention_weights")


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-2)
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
