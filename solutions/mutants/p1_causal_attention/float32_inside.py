"""Computes in float32 whatever the input dtype, then casts back: float64 inputs lose precision.

The dtype comes back right, so only the 1e-12 comparison shows it (errors ~1e-7).
"""

from solutions.p1_causal_attention import causal_attention as _right

KILLED_BY = ("float64_matches_sdpa",)


def causal_attention(q, k, v):
    return _right(q.float(), k.float(), v.float()).to(q.dtype)
