"""Uses the query heads instead of the key/value heads: ignores GQA."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("kv_cache_per_token",)


def kv_cache_bytes_per_token(n_layers, n_heads, n_kv_heads, head_dim, bytes_per_element):
    return 2 * n_layers * n_heads * head_dim * bytes_per_element
