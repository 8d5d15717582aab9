"""Uses num_attention_heads instead of num_key_value_heads: ignores GQA (4x too big for Llama-3-8B)."""

from solutions.a9_kv_cache import *  # noqa: F403
from solutions import a9_kv_cache as _sol

KILLED_BY = ("matches_dynamic_cache", "llama3_8b_per_token", "fits_decision")


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    mha = dict(config, num_key_value_heads=config["num_attention_heads"])
    return _sol.kv_cache_bytes(mha, batch_size, seq_len, bytes_per_element)


def fits_on_gpu(config, n_requests, context_len, gpu_bytes, weight_bytes, bytes_per_element=2):
    return weight_bytes + kv_cache_bytes(config, n_requests, context_len, bytes_per_element) <= gpu_bytes
