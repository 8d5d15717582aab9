"""Quantization speeds every step up by the bytes ratio, training and prefill included."""

from solutions.c3_decode_roofline import *  # noqa: F403

KILLED_BY = ("quantization_speedup",)


def quantization_speedup(n_params, tokens_per_step, bytes_before, bytes_after, peak_flops, bandwidth):
    return bytes_before / bytes_after
