"""Softmax over every key, no causal mask: "forgot the mask" (the decoder sees the future; part 2's 30-line
attention)."""

import math

import torch

EXERCISE, CAUGHT_BY, NAMES = "P1", ("float64_matches_sdpa",), "applies no causal mask"


def causal_attention(q, k, v):
    s = torch.einsum("bhtd,bhsd->bhts", q, k) / math.sqrt(q.shape[-1])
    return torch.einsum("bhts,bhsd->bhtd", torch.softmax(s, dim=-1), v)
