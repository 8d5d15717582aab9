"""Thinks checkpointing halves the activations (it keeps only each layer's input)."""

from solutions.b1_lora_oom import *  # noqa: F403

KILLED_BY = ("activations_after_fix",)


def activations_after_fix(config, batch, seq_len, bytes_per_element):
    per_token_layer = 6 * config["hidden_size"] + 3 * config.get("intermediate_size", 4 * config["hidden_size"])
    return batch * seq_len * config["num_hidden_layers"] * per_token_layer * bytes_per_element // 2
