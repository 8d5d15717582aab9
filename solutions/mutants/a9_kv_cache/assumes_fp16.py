"""Ignores bytes_per_element and counts 2 bytes per element (fp16): right for bf16/fp16 caches only.

AlexsJones/llmfit issue #418 ("KV cache: precise per layer formula": the old formula "implicitly
assumes fp16 ... doesn't know about KV dtype at all"); vllm-project/vllm issue #25350 (the max
length computed as if kv-cache-dtype were not set).
"""

from solutions.a9_kv_cache import *  # noqa: F401,F403
from solutions.a9_kv_cache import kv_cache_bytes as _right

KILLED_BY = ("matches_dynamic_cache",)
MISCONCEPTION = "count 2 bytes per element whatever the cache's dtype"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return _right(config, batch_size, seq_len, 2)
