"""Masks the diagonal too (triu with offset 0): the first query has no key left, its row is all -inf.

From pbloem/former issue #10 ("Issue with masking"): the blog post's mask used
``torch.triu_indices(t, t, offset=0)``; "an offset of 0 will create a row of all -inf, which
gives a complete row of NaNs when fed into softmax". NaN already on small inputs.
"""

import math

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "no_future_leak", "attention_weights", "large_logits")
MISCONCEPTION = (
    "mask the diagonal as well (triu(0) instead of triu(1)): each query loses itself, the first one every key"
)


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(0), float("-inf"))
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(scores, dim=-1), v)
