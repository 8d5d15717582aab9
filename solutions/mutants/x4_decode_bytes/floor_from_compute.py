"""'Decode is slow because the GPU cannot compute fast enough': the floor as FLOPs / peak (2 FLOPs
per weight for the one new token)."""

from solutions.x4_decode_bytes import *  # noqa: F403

KILLED_BY = ("decode_floor",)


def decode_floor_ms(n_params, bytes_per_param, peak_flops, bandwidth):
    return 2 * n_params / peak_flops * 1e3
