"""Counts one cached tensor per layer: forgets that both K and V are cached (factor 2)."""

from solutions.a9_kv_cache import *  # noqa: F403
from solutions import a9_kv_cache as _sol

KILLED_BY = ("matches_dynamic_cache", "llama3_8b_per_token", "fits_decision")


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return _sol.kv_cache_bytes(config, batch_size, seq_len, bytes_per_element) // 2


def fits_on_gpu(config, n_requests, context_len, gpu_bytes, weight_bytes, bytes_per_element=2):
    return weight_bytes + kv_cache_bytes(config, n_requests, context_len, bytes_per_element) <= gpu_bytes
