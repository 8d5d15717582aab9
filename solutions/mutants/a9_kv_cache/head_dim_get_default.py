"""Reads head_dim with ``config.get("head_dim", hidden // heads)``: right when the key is absent,
but a config that writes ``"head_dim": null`` (Mistral, Mixtral) gives None and the product fails.

vllm-project/vllm issue #18573 ("MistralConfig does seem to contain the key of head_dim
(corresponding to a value of null), which means that it will get the value of NoneType") and
llm-d/llm-d-benchmark issue #426 (a KV-cache capacity planner: "TypeError: unsupported operand
type(s) for *: 'int' and 'NoneType'").
"""

from solutions.a9_kv_cache import *  # noqa: F401,F403

KILLED_BY = ("matches_dynamic_cache",)
MISCONCEPTION = "read head_dim with config.get('head_dim', default): a config with \"head_dim\": null gives None"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    head_dim = config.get("head_dim", config["hidden_size"] // config["num_attention_heads"])
    return (
        2
        * config["num_hidden_layers"]
        * config["num_key_value_heads"]
        * head_dim
        * batch_size
        * seq_len
        * bytes_per_element
    )
