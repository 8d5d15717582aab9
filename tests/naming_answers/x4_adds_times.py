"""Adds compute time and memory time for a step (no overlap), the roofline's max read as a sum."""

from solutions.x4_decode_bytes import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "X4", ("step_time_vs_batch",), "adds the compute time to the memory time"


def decode_step_ms(n_params, bytes_per_param, batch, peak_flops, bandwidth):
    return (2 * n_params * batch / peak_flops + n_params * bytes_per_param / bandwidth) * 1e3
