"""Returns seconds (bytes / bandwidth) where the function's name says milliseconds."""

from solutions.x4_decode_bytes import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "X4", ("decode_floor",), "returns seconds"


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return n_params * bytes_per_param / bandwidth
