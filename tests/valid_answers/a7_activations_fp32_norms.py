"""A valid A7 answer the check once rejected: it models RMSNorm's fp32 upcast (the norms' saved
tensors stay fp32 in a bf16 model), so its fp32/bf16 ratio is below 2, as the measurement's is."""


def activation_bytes(config, batch, seq_len, checkpointing=False, bytes_per_elem=2):
    d, d_ff, layers = config["hidden_size"], config["intermediate_size"], config["num_hidden_layers"]
    tokens = batch * seq_len * layers
    if checkpointing:
        return tokens * d * bytes_per_elem
    norms = 2 * d * 4  # two RMSNorm inputs per layer, saved in fp32 whatever the model's dtype
    return tokens * ((4 * d + 3 * d_ff) * bytes_per_elem + norms)
