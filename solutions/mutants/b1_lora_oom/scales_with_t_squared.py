"""Scales with T^2 as if the [T, T] attention scores were stored (SDPA does not store them)."""

from solutions.b1_lora_oom import *  # noqa: F403

KILLED_BY = ("activations_at_new_shape",)


def scale_activations(measured_bytes, measured_batch, measured_seq_len, batch, seq_len):
    return round(measured_bytes * batch * seq_len**2 / (measured_batch * measured_seq_len**2))
