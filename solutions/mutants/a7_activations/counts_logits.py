"""Adds the logits (B x T x vocab) to the blocks' activations: they are large, but the stub counts
the decoder layers' saved tensors only, so the estimate wrongly grows with the vocabulary.

The logits are "one of the dominant activations held in memory" (huggingface/trl PR #5575,
"Chunked cross-entropy loss for SFT"), outside the transformer blocks the exercise measures.
"""

from solutions.a7_activations import *  # noqa: F401,F403
from solutions.a7_activations import activation_bytes as _right

KILLED_BY = ("growth_with_inputs",)
MISCONCEPTION = "add the B x T x vocab logits: the exercise counts the decoder layers' saved tensors only"


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    return (
        _right(config, batch, seq_len, checkpointing, bytes_per_elem)
        + batch * seq_len * config["vocab_size"] * bytes_per_elem
    )
