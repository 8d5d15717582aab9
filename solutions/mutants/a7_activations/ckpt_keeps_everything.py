"""Ignores checkpointing: believes it only trades compute, so the same activations are kept."""

from solutions.a7_activations import activation_bytes as _solution

KILLED_BY = ("checkpointed_bytes",)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    return _solution(config, batch, seq_len, False, bytes_per_elem)
