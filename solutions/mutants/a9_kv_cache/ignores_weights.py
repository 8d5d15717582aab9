"""Compares the KV cache alone with the GPU: forgets that the weights are there too
(Llama-3-8B 128 x 4K: 68.7 GB < 80 GB "fits")."""

from solutions.a9_kv_cache import *  # noqa: F403
from solutions.a9_kv_cache import kv_cache_bytes

KILLED_BY = ("fits_decision",)


def fits_on_gpu(config, n_requests, context_len, gpu_bytes, weight_bytes, bytes_per_element=2):
    return kv_cache_bytes(config, n_requests, context_len, bytes_per_element) <= gpu_bytes
