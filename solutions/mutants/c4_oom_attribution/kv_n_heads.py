"""Uses num_attention_heads instead of num_key_value_heads: ignores GQA."""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("kv_cache_gqa",)


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    d_head = config.get("head_dim") or config["hidden_size"] // config["num_attention_heads"]
    return (
        2
        * config["num_hidden_layers"]
        * config["num_attention_heads"]
        * d_head
        * batch_size
        * seq_len
        * bytes_per_element
    )
