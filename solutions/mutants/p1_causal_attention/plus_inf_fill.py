"""Fills the future with ``-float('-inf')``, i.e. +inf, instead of -inf.

From lucidrains/memory-compressed-attention issue #2 ("The order of masking and softmax
operation"): the mask value was written ``-float('-inf')``; "exp(-float('-inf')) would cause
NaN". Every row with a future key becomes inf / inf = NaN, on any input.
"""

import math

import torch

KILLED_BY = ("float32_matches_sdpa", "float64_matches_sdpa", "attention_weights", "large_logits")
MISCONCEPTION = "fill the future with -float('-inf'), which is +inf: softmax gives inf / inf = NaN"


def causal_attention(q, k, v):
    T, d = q.shape[-2], q.shape[-1]
    scores = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(d)
    scores = scores.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), -float("-inf"))
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(scores, dim=-1), v)
