"""With checkpointing adds one layer's full activations to the layers' saved inputs: the peak while
backward recomputes a layer, not what the forward keeps for backward (the stub's measure), so the
estimate is too large by a whole layer's worth.

The segmented-checkpointing estimate reviewed in ooples/AiDotNet PR #1916 ("Segmented-checkpointing
peak: one segment's activations held live during recompute, plus one saved activation per segment
boundary ... A*(s + ceil(n/s))"), here with segments of one layer as transformers checkpoints them.
"""

from solutions.a7_activations import *  # noqa: F401,F403
from solutions.a7_activations import activation_bytes as _right

KILLED_BY = ("checkpointed_bytes",)
MISCONCEPTION = "add one layer's recomputed activations under checkpointing: the forward keeps each layer's input only"


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    saved = _right(config, batch, seq_len, checkpointing, bytes_per_elem)
    if not checkpointing:
        return saved
    one_layer = _right(dict(config, num_hidden_layers=1), batch, seq_len, False, bytes_per_elem)
    return saved + one_layer
