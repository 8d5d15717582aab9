"""Adds the T x T attention scores (heads x T x T per sequence and layer), which eager attention
stores but a fused kernel (SDPA / flash attention) never does: grows faster than T."""

from solutions.a7_activations import activation_bytes as _solution

KILLED_BY = ("growth_with_inputs",)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    base = _solution(config, batch, seq_len, checkpointing, bytes_per_elem)
    if checkpointing:
        return base
    scores = batch * config["num_attention_heads"] * seq_len * seq_len * config["num_hidden_layers"]
    return base + scores * bytes_per_elem
