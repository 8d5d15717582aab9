"""Returns seconds where milliseconds are asked for."""

from solutions.x4_decode_bytes import *  # noqa: F403

KILLED_BY = ("decode_floor",)


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return n_params * bytes_per_param / bandwidth
