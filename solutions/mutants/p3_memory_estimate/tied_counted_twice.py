"""Counts a tied LM head as its own matrix: with tie_word_embeddings the embedding is stored
once, so V x d parameters (and their gradients and AdamW state) are counted twice."""

from solutions.p3_memory_estimate import *  # noqa: F401,F403
from solutions.p3_memory_estimate import estimate_training_memory as _reference

KILLED_BY = ("state_blocks",)


def estimate_training_memory(config, batch_size, seq_len):
    out = _reference(dict(config, tie_word_embeddings=False), batch_size, seq_len)
    return out
