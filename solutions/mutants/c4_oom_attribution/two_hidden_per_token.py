"""Counts 2 x hidden_size numbers per token and layer (K and V of full width), ignoring GQA and
head_dim: 4x too much for Llama-3-8B.

The formula a reviewer flagged in vllm-project/vllm PR #29736 (a KV cache memory estimator:
"The formula 2 * hidden_size is equivalent to 2 * num_attention_heads * head_size, but the KV
cache size depends on num_key_value_heads"); also KolosalAI/model-memory-calculator issue #2.
"""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("kv_cache_gqa",)
MISCONCEPTION = "count 2 x hidden_size numbers per token and layer: K and V have n_kv_heads x head_dim each"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return 2 * config["num_hidden_layers"] * config["hidden_size"] * batch_size * seq_len * bytes_per_element
