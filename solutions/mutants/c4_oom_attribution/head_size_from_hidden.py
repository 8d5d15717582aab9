"""Always takes the head size as hidden_size / num_attention_heads, ignoring a head_dim that differs
(Qwen3, Gemma): the cache is off by head_dim / (hidden / heads).

The calculator bug of LMCache/LMCache issue #688 ("head_size = hidden_size / num_attention_heads
... this will get wrong results when head_size not equal to it like Qwen3-4B").
"""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("kv_cache_gqa",)
MISCONCEPTION = "take the head size as hidden_size / num_attention_heads even when head_dim is given and differs"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    d_head = config["hidden_size"] // config["num_attention_heads"]
    return (
        2
        * config["num_hidden_layers"]
        * config["num_key_value_heads"]
        * d_head
        * batch_size
        * seq_len
        * bytes_per_element
    )
