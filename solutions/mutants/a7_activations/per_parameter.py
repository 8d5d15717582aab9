"""Counts activations per parameter, like the 16 bytes of training state: the model's parameter
count x bytes, independent of batch and sequence length (part 7, §四: "activations scale with
the parameters")."""

from solutions.a7_activations import activation_bytes as _solution

KILLED_BY = ("growth_with_inputs", "tracks_measurement")
MISCONCEPTION = (
    "count activations per parameter, like the training state: they grow with B and T, not with the parameter count"
)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    if checkpointing:
        return _solution(config, batch, seq_len, True, bytes_per_elem)
    d, f, L, V = (config[k] for k in ("hidden_size", "intermediate_size", "num_hidden_layers", "vocab_size"))
    kv = config["num_key_value_heads"] * config["head_dim"]
    layer = 2 * d * d + 2 * d * kv + 3 * d * f + 2 * d
    heads = 1 if config["tie_word_embeddings"] else 2
    return (L * layer + heads * V * d + d) * bytes_per_elem
