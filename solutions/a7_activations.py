"""A7 — activation memory vs B, T and checkpointing (part 7, §五.A question 7; part 4, activations)."""


def activation_bytes(
    config: dict, batch: int, seq_len: int, checkpointing: bool = False, bytes_per_elem: int = 2
) -> int:
    """Bytes the decoder layers save for backward: B x T x layers x (per-token elements) x bytes."""
    d = config["hidden_size"]
    d_ff = config["intermediate_size"]
    layers = config["num_hidden_layers"]
    tokens = batch * seq_len
    if checkpointing:
        per_token = d  # each layer keeps only its input; the rest is recomputed in backward
    else:
        per_token = 6 * d + 3 * d_ff  # the course's count: ~6 d-sized and 3 d_ff-sized tensors
    return tokens * layers * per_token * bytes_per_elem
