"""PV with the output axes swapped: (b, d, T) instead of (b, T, d)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("einsum_pv",)


def einsum_pv(with_heads=False):
    return "bhts,bhsd->bhdt" if with_heads else "bts,bsd->bdt"
