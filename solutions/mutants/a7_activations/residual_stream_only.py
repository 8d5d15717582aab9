"""Takes the residual stream (one d-sized tensor per token and layer: 32 MiB/layer for Llama-3-8B)
for the activations even without checkpointing, instead of the ~528 MiB/layer autograd saves."""

KILLED_BY = ("tracks_measurement",)
MISCONCEPTION = (
    "take the residual stream (one d-sized tensor per token and layer) for the activations: autograd saves far more"
)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    return batch * seq_len * config["num_hidden_layers"] * config["hidden_size"] * bytes_per_elem
