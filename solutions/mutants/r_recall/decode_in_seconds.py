"""Right formula, wrong unit: returns seconds where the name says milliseconds."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("decode_floor",)


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth_bytes_per_s):
    return n_params * bytes_per_param / bandwidth_bytes_per_s
