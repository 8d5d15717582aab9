"""Inverts the ridge: bandwidth / peak (bytes per FLOP instead of FLOP per byte)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ridge_point",)


def ridge_point(peak_flops, bandwidth_bytes_per_s):
    return bandwidth_bytes_per_s / peak_flops
