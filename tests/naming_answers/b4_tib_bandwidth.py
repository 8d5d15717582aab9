"""Converts TB/s with 1024**4: the GiB-for-GB slip of alvarobartt/hf-mem issue #33 ("Final value is
GiB not GB?"), here on the bandwidth; the course's floor is 「0.99 GB / 3.35 TB/s」 in decimal units."""

from solutions.b4_merged_decode import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "B4", ("decode_floor",), "mixes GiB and GB (or TiB and TB)"


def decode_floor_ms(n_params, bytes_per_param, peak_tflops, bandwidth_tb_s):
    return n_params * bytes_per_param / (bandwidth_tb_s * 1024**4) * 1000
