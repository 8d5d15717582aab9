"""A9 — KV-cache bytes (part 7, §五.A question 9; part 6, the fourth block of GPU memory)."""


def head_dim(config: dict) -> int:
    return config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]


def kv_cache_bytes(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """2 (K and V) x layers x n_kv_heads x head_dim numbers per token, times B x T x bytes."""
    per_token = 2 * config["num_hidden_layers"] * config["num_key_value_heads"] * head_dim(config)
    return per_token * batch_size * seq_len * bytes_per_element


def fits_on_gpu(
    config: dict, n_requests: int, context_len: int, gpu_bytes: int, weight_bytes: int, bytes_per_element: int = 2
) -> bool:
    """Weights + KV cache <= GPU memory."""
    return weight_bytes + kv_cache_bytes(config, n_requests, context_len, bytes_per_element) <= gpu_bytes
