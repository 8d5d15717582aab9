"""Derives the head size as hidden_size / num_attention_heads even when the config gives head_dim:
LMCache/LMCache issue #688 ("head_size = hidden_size / num_attention_heads ... will get wrong results
when head_size not equal to it like Qwen3-4B")."""

from solutions.c4_oom_attribution import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C4", ("kv_cache_gqa",), "ignores the config's head_dim"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    head_size = config["hidden_size"] // config["num_attention_heads"]
    return (
        2
        * config["num_hidden_layers"]
        * config["num_key_value_heads"]
        * head_size
        * batch_size
        * seq_len
        * bytes_per_element
    )
