"""Writes heads x head_dim as hidden_size (vllm-project/vllm#29736: "2 * hidden_size ... overestimates the KV
cache size for models that use GQA"): with GQA and head_dim == hidden / heads it is the query-heads mistake."""

# two readings: not named unless the probe tells them apart
EXERCISE, CAUGHT_BY, NAMES = "A9", ("matches_dynamic_cache",), None


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return 2 * config["num_hidden_layers"] * config["hidden_size"] * batch_size * seq_len * bytes_per_element


def head_dim(config):
    return config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]


def fits_on_gpu(config, n_requests, context_len, gpu_bytes, weight_bytes, bytes_per_element=2):
    return weight_bytes + kv_cache_bytes(config, n_requests, context_len, bytes_per_element) <= gpu_bytes
