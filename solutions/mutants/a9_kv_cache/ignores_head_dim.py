"""Always takes head_dim = hidden_size // num_attention_heads, ignoring a config's own head_dim
(wrong for Qwen3-style configs where heads x head_dim != hidden_size)."""

from solutions.a9_kv_cache import *  # noqa: F403
from solutions import a9_kv_cache as _sol

KILLED_BY = ("matches_dynamic_cache",)


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    derived = {k: v for k, v in config.items() if k != "head_dim"}
    return _sol.kv_cache_bytes(derived, batch_size, seq_len, bytes_per_element)
