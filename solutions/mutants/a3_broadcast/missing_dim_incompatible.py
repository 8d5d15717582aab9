"""Treats a missing dimension as incompatible: only equal-rank shapes broadcast."""

from solutions.mutants.a3_broadcast import _rules

KILLED_BY = ("different_lengths",)


def _equal_ranks_only(a, b):
    if len(a) != len(b):
        raise ValueError("ranks differ")
    return a, b


def broadcast_shape(a, b):
    return _rules.broadcast_shape(a, b, align=_equal_ranks_only)
