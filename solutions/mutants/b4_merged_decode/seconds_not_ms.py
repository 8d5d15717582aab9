"""Seconds instead of milliseconds: forgets the x 1e3."""

from solutions.b4_merged_decode import *  # noqa: F401,F403

KILLED_BY = ("decode_floor",)


def decode_floor_ms(n_params, bytes_per_param, peak_tflops, bandwidth_tb_s):
    return n_params * bytes_per_param / (bandwidth_tb_s * 1e12)
