"""Counts the cache's elements and forgets bytes_per_element: on the course's bf16 Llama-3-8B call
(2 bytes) it gives exactly what K alone gives, the degenerate case of issue 29; the fix of
jranaraki/vllm-fit issue #2 ("2 * num_layers * num_key_value_heads * head_dim * kv_dtype_bytes")."""

from solutions.c4_oom_attribution import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C4", ("kv_cache_gqa",), "counts elements, not bytes"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    head_dim = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    return 2 * config["num_hidden_layers"] * config["num_key_value_heads"] * head_dim * batch_size * seq_len
