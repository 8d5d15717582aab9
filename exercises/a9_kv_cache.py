"""A9 — the KV cache: how big, and does it fit beside the weights?

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 9)::

    Llama-3-8B bf16 推理，128 个并发请求、每个 4K 上下文，KV cache 多大？加上权重能不能放进一张 80 GB 卡？

    Llama-3-8B, bf16 inference, 128 concurrent requests of 4K context each: how big is the KV
    cache? With the weights, does it fit on one 80 GB card?

Work it out from ``config.json``, for any model of this family.

What the grader measures: your bytes against the key and value tensors of a real transformers
``DynamicCache`` after a forward (a tiny GQA model, and meta-device copies of real configs), and
your decision on GPUs drawn around the exact need, one byte either side included.

Study: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 (显存四块) / part 6, conclusion.
"""


def kv_cache_bytes(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """Bytes of the KV cache holding ``batch_size`` sequences of ``seq_len`` tokens each.

    Args:
        config: a plain dict with the fields of a Llama / Qwen2 ``config.json``:
            ``hidden_size``, ``num_hidden_layers``, ``num_attention_heads``,
            ``num_key_value_heads``, ``vocab_size``, ``intermediate_size``, ... and, optionally,
            ``head_dim`` (absent, or ``None`` as real configs write it: it is
            ``hidden_size // num_attention_heads``; an int: it may differ from that).
        batch_size: sequences (requests) in the cache, >= 1.
        seq_len: tokens per sequence held in the cache (prompt + generated so far), >= 1.
        bytes_per_element: bytes of one cached number.

    Returns:
        Bytes, a plain int (not KB, not GB): the ``nbytes`` of every tensor a transformers
        ``DynamicCache`` holds after a forward with ``use_cache=True`` over a
        ``[batch_size, seq_len]`` batch.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q9.
    """
    raise NotImplementedError("A9: kv_cache_bytes")


def fits_on_gpu(
    config: dict, n_requests: int, context_len: int, gpu_bytes: int, weight_bytes: int, bytes_per_element: int = 2
) -> bool:
    """Do the weights and the KV cache of ``n_requests`` full contexts fit in one GPU?

    Args:
        config: as for :func:`kv_cache_bytes`.
        n_requests: concurrent requests, each holding ``context_len`` tokens in the cache.
        context_len: tokens per request.
        gpu_bytes: the GPU's memory, in bytes.
        weight_bytes: bytes of the model's weights.
        bytes_per_element: bytes of one cached number.

    Returns:
        A plain bool (decode's own activations and fragmentation are ignored here).

    Source: 第六篇 · 结论 (显存四块) / part 6, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q9.
    """
    raise NotImplementedError("A9: fits_on_gpu")
