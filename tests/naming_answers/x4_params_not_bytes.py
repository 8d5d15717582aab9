"""Divides the parameter count, not its bytes, by the bandwidth (one byte per weight)."""

from solutions.x4_decode_bytes import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "X4", ("decode_floor",), "leaves out the bytes per parameter"


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return n_params / bandwidth * 1e3
