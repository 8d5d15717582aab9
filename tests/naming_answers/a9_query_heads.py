"""Uses num_attention_heads for the cached heads: jranaraki/vllm-fit#2 ("overcounts ... and ignores GQA") and
meta-pytorch/torchtune#38 ("Initialize kv cache w/num_kv_heads instead of num_heads")."""

from solutions.a9_kv_cache import *  # noqa: F401,F403
from solutions.a9_kv_cache import head_dim

EXERCISE, CAUGHT_BY, NAMES = "A9", ("matches_dynamic_cache",), "uses num_attention_heads"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return (
        2
        * config["num_hidden_layers"]
        * config["num_attention_heads"]
        * head_dim(config)
        * batch_size
        * seq_len
        * bytes_per_element
    )
