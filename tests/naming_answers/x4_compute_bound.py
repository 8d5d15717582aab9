"""Decode slow because "the GPU cannot compute fast enough" (part 7 §四): time = 2 x params / peak FLOPs."""

from solutions.x4_decode_bytes import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "X4", ("decode_floor",), "computes the time from the FLOPs"


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return 2.0 * n_params / peak_flops * 1000
