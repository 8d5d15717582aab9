"""Counts only the d-sized tensors (attention, norms) and forgets the MLP's d_ff-sized ones,
which are the larger part in Llama (d_ff = 3.5 d)."""

KILLED_BY = ("tracks_measurement",)


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    per_token = config["hidden_size"] if checkpointing else 6 * config["hidden_size"]
    return batch * seq_len * config["num_hidden_layers"] * per_token * bytes_per_elem
