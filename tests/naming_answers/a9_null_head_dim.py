"""Reads head_dim with dict.get's default ("head_dim" written as null stays None): nod-ai/AMD-SHARK-ModelDev#388
("Phi has it, but it is set to null")."""

from solutions.a9_kv_cache import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A9", ("matches_dynamic_cache",), "head_dim written as null"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    hd = config["head_dim"] if "head_dim" in config else config["hidden_size"] // config["num_attention_heads"]
    return (
        2 * config["num_hidden_layers"] * config["num_key_value_heads"] * hd * batch_size * seq_len * bytes_per_element
    )
