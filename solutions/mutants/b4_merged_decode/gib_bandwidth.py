"""Reads TB/s as TiB/s (2**40 bytes/s): the floor comes out 10% low."""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("decode_floor",)


def decode_floor_ms(n_params, bytes_per_param, peak_tflops, bandwidth_tb_s):
    return n_params * bytes_per_param / (bandwidth_tb_s * 2**40) * 1e3
