"""Predicts the batch that fits from the activations alone, forgetting weights and state stay."""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("remedy_per_block",)


def max_batch_that_fits(fixed_bytes, activation_bytes_per_sample, gpu_bytes):
    return gpu_bytes // activation_bytes_per_sample
