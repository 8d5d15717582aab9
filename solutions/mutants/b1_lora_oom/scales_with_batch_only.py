"""Scales the activations with the batch but forgets the sequence length."""

from solutions.b1_lora_oom import *  # noqa: F403

KILLED_BY = ("activations_at_new_shape",)


def scale_activations(measured_bytes, measured_batch, measured_seq_len, batch, seq_len):
    return round(measured_bytes * batch / measured_batch)
