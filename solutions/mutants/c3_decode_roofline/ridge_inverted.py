"""Divides the wrong way round: ridge = bandwidth / peak."""

from solutions.c3_decode_roofline import *  # noqa: F403

KILLED_BY = ("ridge",)


def ridge_point(peak_flops, bandwidth):
    return bandwidth / peak_flops
