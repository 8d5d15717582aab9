"""QK^T with the output axes swapped: (b, S, T) instead of (b, T, S)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("einsum_qk",)


def einsum_qk(with_heads=False):
    return "bhtd,bhsd->bhst" if with_heads else "btd,bsd->bst"
