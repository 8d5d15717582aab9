"""Counts the K/V of one layer as the per-token cache: every layer keeps its own K and V, so the
cache is n_layers times that.

mudler/vllm.cpp issue #357 ("KVBytesPerBlock() under-reports by exactly num_hidden_layers": one
sentinel layer name where the model has 28 layers); AlexsJones/llmfit issue #418 (a KV formula that
"doesn't model layer count or head dim").
"""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("kv_cache_per_token",)
MISCONCEPTION = "count one layer's K and V: every layer caches its own, so multiply by the number of layers"


def kv_cache_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_element):
    return 2 * n_kv_heads * head_dim * bytes_per_element
