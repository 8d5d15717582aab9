"""Adds compute time and memory time instead of taking the slower one (no overlap)."""

from solutions.x4_decode_bytes import *  # noqa: F403

KILLED_BY = ("step_time_vs_batch",)


def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
    return (2 * n_params * batch / peak_flops + n_params * bytes_per_param / bandwidth) * 1e3
