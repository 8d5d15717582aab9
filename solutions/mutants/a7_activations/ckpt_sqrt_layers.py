"""With checkpointing keeps the inputs of about sqrt(L) + 1 segment boundaries plus one segment's full
activations (Chen et al.'s sqrt(n) scheme), instead of every layer's input as HF's per-layer
gradient checkpointing does.

The "~sqrt(L)+1 with full checkpointing" rule of the calculator at
https://tooljolt.com/tools/activation-memory-calculator (after Chen et al. 2016); transformers'
gradient_checkpointing_enable() checkpoints each decoder layer.
"""

import math

from solutions.a7_activations import *  # noqa: F401,F403
from solutions.a7_activations import activation_bytes as _right

KILLED_BY = ("checkpointed_bytes",)
MISCONCEPTION = (
    "keep ~sqrt(L) segment inputs plus one segment's activations (sqrt(n) checkpointing): HF checkpoints every layer"
)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    if not checkpointing:
        return _right(config, batch, seq_len, False, bytes_per_elem)
    layers = config["num_hidden_layers"]
    segments = max(1, round(math.sqrt(layers)))
    per_layer_full = _right(dict(config, num_hidden_layers=1), batch, seq_len, False, bytes_per_elem)
    inputs = batch * seq_len * config["hidden_size"] * bytes_per_elem * (segments + 1)
    return inputs + per_layer_full * math.ceil(layers / segments)
