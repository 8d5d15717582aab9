"""Knows the 3-d QK^T string but reuses it for the 4-d case with heads."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("einsum_qk",)


def einsum_qk(with_heads=False):
    return "btd,bsd->bts"
