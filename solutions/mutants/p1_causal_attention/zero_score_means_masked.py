"""Masks by multiplying the scores with a 0/1 lower triangle, then sets every score equal to 0 to -inf.

From duoan/TorchCode issue #17: ``scores = (Q K^T / sqrt(d)) * mask; scores[scores == 0] =
float('-inf')`` passed that site's checks. It is right whenever no allowed logit is exactly 0;
a query or key vector of zeros (padding, a zero embedding) makes a whole row -inf: NaN.
"""

import math

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa")
MISCONCEPTION = (
    "mask by multiplying with a 0/1 triangle and then turn every score equal to 0 into -inf (an allowed logit can be 0)"
)


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores * torch.ones(T, T, dtype=q.dtype).tril()
    scores = scores.masked_fill(scores == 0, float("-inf"))
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(scores, dim=-1), v)
