"""The KV cache's named mistakes (issue 29), one place for every check that asks for
``kv_cache_bytes(config, batch_size, seq_len, bytes_per_element)`` (A9, C4): the truth is the
bytes of a real ``DynamicCache`` built on the meta device (``truth/kv_cache.py``)."""

from __future__ import annotations

import dataclasses

import torch

from grader.checks.support import mistakes
from grader.checks.support.mistakes import Raised, gives, mistake, shows
from grader.checks.truth.kv_cache import meta_cache_bytes

KEYS = ("head_dim", "num_key_value_heads", "num_attention_heads", "hidden_size", "num_hidden_layers")
# heads != kv heads, head_dim != hidden / heads, 3 layers, B, T > 1, 4 bytes (not 2, the K-and-V factor):
# every mistake below gives a different value here
PROBE = (
    (
        {
            "vocab_size": 64,
            "hidden_size": 48,
            "intermediate_size": 64,
            "num_hidden_layers": 3,
            "num_attention_heads": 6,
            "num_key_value_heads": 2,
            "head_dim": 12,
            "max_position_embeddings": 64,
        },
        2,
        5,
        4,
    ),
    {},
)


def truth(config, b, t, nbytes):
    dtype = {2: torch.bfloat16, 4: torch.float32, 8: torch.float64}[nbytes]
    return meta_cache_bytes(config, b, t, dtype)


def _derived_head_dim(config, b, t, nbytes):
    return truth({**config, "head_dim": config["hidden_size"] // config["num_attention_heads"]}, b, t, nbytes)


def declare(where: str, factor_points: tuple[str, ...], head_dim_points: tuple[str, ...]) -> None:
    """The factor slips (K and V, layers, query heads, bytes) for ``factor_points``; the head_dim
    ones (given, or written as null) for ``head_dim_points``: the key points that draw such configs.
    ``where``: the declaring check module (``__name__``), whose exercise the key points are."""
    first = len(mistakes.DECLARED)
    shows("kv_cache_bytes", *KEYS)
    mistake(
        *factor_points,
        function="kv_cache_bytes",
        probe=PROBE,
        zh="只算了 K 或 V 中的一个，每层缓存 K 和 V 两份",
        en="counts one of K and V: each layer caches both",
    )(gives(lambda *a: truth(*a) // 2, truth))
    mistake(
        *factor_points,
        function="kv_cache_bytes",
        probe=PROBE,
        zh="只算了一层，没有乘层数",
        en="counts one layer, not every layer",
    )(gives(lambda c, *a: truth(c, *a) // c["num_hidden_layers"], truth))
    mistake(
        *factor_points,
        function="kv_cache_bytes",
        probe=PROBE,
        zh="用了查询头数 num_attention_heads，而 GQA 缓存的是 num_key_value_heads 个头",
        en="uses num_attention_heads; with GQA the cache holds num_key_value_heads heads",
    )(gives(lambda c, *a: truth(c, *a) * c["num_attention_heads"] // c["num_key_value_heads"], truth))
    mistake(
        *factor_points,
        function="kv_cache_bytes",
        probe=PROBE,
        zh="没有乘 bytes_per_element（算的是元素个数，不是字节）",
        en="counts elements, not bytes: bytes_per_element is not multiplied in",
    )(gives(lambda c, b, t, n: truth(c, b, t, n) // n, truth))
    mistake(
        *head_dim_points,
        function="kv_cache_bytes",
        probe=PROBE,
        zh="忽略了配置里的 head_dim，用 hidden_size / 头数 代替",
        en="ignores the config's head_dim and uses hidden_size / heads",
    )(gives(_derived_head_dim, truth))

    @mistake(
        *head_dim_points,
        function="kv_cache_bytes",
        probe=(({**PROBE[0][0], "head_dim": None}, 2, 5, 2), {}),
        zh="把配置里写成 null 的 head_dim 当成了数字（config.get 的默认值只在键不存在时生效）",
        en="takes a head_dim written as null for a number (config.get's default applies only to an absent key)",
    )
    def _head_dim_null(got, config, *args):
        return (
            "head_dim" in config
            and config["head_dim"] is None
            and isinstance(got, Raised)
            and got.type_name == "TypeError"
        )

    mistakes.DECLARED[first:] = [dataclasses.replace(m, where=where) for m in mistakes.DECLARED[first:]]
