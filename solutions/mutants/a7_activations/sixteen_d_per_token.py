"""Uses a flat 16 x d elements per token and layer, whatever d_ff is (a "common back-of-the-envelope
shortcut"): the MLP's share does not follow intermediate_size.

The shortcut of https://torchedup.dev/problems/activation-memory-transformer ("per_layer_bytes =
16 * batch * seq_len * d_model * dtype_bytes ... FFN intermediate (4d hidden)"): it assumes
d_ff = 4d; Llama-style MLPs have other ratios, and the measurement follows them.
"""

from solutions.a7_activations import *  # noqa: F401,F403
from solutions.a7_activations import activation_bytes as _right

KILLED_BY = ("tracks_measurement",)
MISCONCEPTION = (
    "count a flat 16 d per token and layer (a d_ff = 4d shortcut): the MLP's share must follow intermediate_size"
)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    if checkpointing:
        return _right(config, batch, seq_len, True, bytes_per_elem)
    return batch * seq_len * config["num_hidden_layers"] * 16 * config["hidden_size"] * bytes_per_elem
