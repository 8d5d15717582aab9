"""Multiplies by num_attention_heads AND hidden_size (2 x layers x heads x hidden x bytes): an extra
factor of the head count, and no GQA.

The estimator of jranaraki/vllm-fit issue #2 ("KV-cache-per-token estimate overcounts by ~8x and
ignores GQA": ``2 * num_layers * num_attention_heads * hidden_size * ...``; the fix:
``2 * num_layers * num_key_value_heads * head_dim * kv_dtype_bytes``).
"""

from solutions.a9_kv_cache import *  # noqa: F401,F403

KILLED_BY = ("matches_dynamic_cache", "llama3_8b_per_token")
MISCONCEPTION = (
    "multiply by num_attention_heads x hidden_size (an extra head factor, no GQA) instead of kv_heads x head_dim"
)


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return (
        2
        * config["num_hidden_layers"]
        * config["num_attention_heads"]
        * config["hidden_size"]
        * batch_size
        * seq_len
        * bytes_per_element
    )
