"""Masks by multiplying the scores by a 0/1 mask: future logits become 0, not -inf.

exp(0) is not 0, so every future key still gets weight: the future leaks into the past.
"""

import math

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "no_future_leak", "attention_weights")


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores * torch.ones(T, T, dtype=q.dtype).tril()
    weights = torch.softmax(scores, dim=-1)
    return torch.einsum("bhts,bhsd->bhtd", weights, v)
