"""Reads head_dim with ``config.get("head_dim", hidden // heads)``: the stub says head_dim may be
None, and then the product fails.

vllm-project/vllm issue #18573 and llm-d/llm-d-benchmark issue #426 (a KV-cache capacity planner
crashing on Mixtral's "head_dim": null: "unsupported operand type(s) for *: 'int' and 'NoneType'").
"""

from solutions.c4_oom_attribution import *  # noqa: F403

KILLED_BY = ("kv_cache_gqa",)
MISCONCEPTION = "read head_dim with config.get('head_dim', default): a head_dim of None is not replaced"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    d_head = config.get("head_dim", config["hidden_size"] // config["num_attention_heads"])
    return (
        2
        * config["num_hidden_layers"]
        * config["num_key_value_heads"]
        * d_head
        * batch_size
        * seq_len
        * bytes_per_element
    )
