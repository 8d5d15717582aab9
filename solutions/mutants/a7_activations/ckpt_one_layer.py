"""With checkpointing keeps the input of one layer only, forgetting that every layer keeps its own."""

from solutions.a7_activations import activation_bytes as _solution

KILLED_BY = ("checkpointed_bytes",)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    if checkpointing:
        return batch * seq_len * config["hidden_size"] * bytes_per_elem
    return _solution(config, batch, seq_len, False, bytes_per_elem)
