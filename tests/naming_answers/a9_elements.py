"""Returns the number of cached elements (the shapes' product), not bytes: bytes_per_element never multiplied in."""

from solutions.a9_kv_cache import *  # noqa: F401,F403
from solutions.a9_kv_cache import head_dim

EXERCISE, CAUGHT_BY, NAMES = "A9", ("matches_dynamic_cache",), "counts elements, not bytes"


def kv_cache_bytes(config, batch_size, seq_len, bytes_per_element):
    return 2 * config["num_hidden_layers"] * config["num_key_value_heads"] * head_dim(config) * batch_size * seq_len
