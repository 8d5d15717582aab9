"""Decode time from compute: 2 FLOPs per parameter at the peak (X4's misconception)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("decode_floor",)


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth_bytes_per_s):
    return 2 * n_params / peak_flops * 1e3
