"""Counts the weights in GiB and the bandwidth in GB/s (3.35 TB/s read as 3350 "GB"): ollama/ollama#127-like
mixing of GiB and GB."""

from solutions.x4_decode_bytes import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "X4", ("decode_floor",), "mixes GiB and GB"


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return (n_params * bytes_per_param / 2**30) / (bandwidth / 1e9) * 1e3
