"""A9 — KV cache：有多大，和权重放在一起装得下吗？

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 9 题）::

    Llama-3-8B bf16 推理，128 个并发请求、每个 4K 上下文，KV cache 多大？加上权重能不能放进一张 80 GB 卡？

从 ``config.json`` 算出来，对这一族的任意模型。

评分器测什么：你的字节数与一次前向之后真实 transformers ``DynamicCache`` 里的 key 和 value 张量相比
（一个很小的 GQA 模型，以及真实 config 在 meta 设备上的副本），以及你对在恰好所需量附近抽取的 GPU
的判断，包括多一个字节和少一个字节。

学习：第六篇 · 必记；第六篇 · 结论（显存四块）。

English
-------

A9 — the KV cache: how big, and does it fit beside the weights?

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
    """存放 ``batch_size`` 条、每条 ``seq_len`` 个 token 的序列的 KV cache 的字节数。

    参数：
        config: 普通 dict，含 Llama / Qwen2 ``config.json`` 的字段：
            ``hidden_size``、``num_hidden_layers``、``num_attention_heads``、
            ``num_key_value_heads``、``vocab_size``、``intermediate_size``、……，以及可选的
            ``head_dim``（缺省，或像真实 config 那样写成 ``None``：它就是
            ``hidden_size // num_attention_heads``；是 int 时可能与之不同）。
        batch_size: cache 里的序列（请求）数，>= 1。
        seq_len: cache 里每条序列保存的 token 数（prompt 加上到目前为止生成的），>= 1。
        bytes_per_element: 一个缓存的数的字节数。

    返回：
        字节数，普通的 int（不是 KB，不是 GB）：对一个 ``[batch_size, seq_len]`` 的 batch 做一次
        ``use_cache=True`` 的前向之后，transformers ``DynamicCache`` 保存的每个张量的 ``nbytes``
        之和。

    出处：第六篇 · 必记；第七篇 · A. 判断与计算（第 9 题）。

    English
    -------

    Bytes of the KV cache holding ``batch_size`` sequences of ``seq_len`` tokens each.

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
    """权重加上 ``n_requests`` 个完整上下文的 KV cache 能放进一张 GPU 吗？

    参数：
        config: 同 :func:`kv_cache_bytes`。
        n_requests: 并发请求数，每个在 cache 里保存 ``context_len`` 个 token。
        context_len: 每个请求的 token 数。
        gpu_bytes: GPU 的显存，以字节计。
        weight_bytes: 模型权重的字节数。
        bytes_per_element: 一个缓存的数的字节数。

    返回：
        一个普通的 bool；恰好占满 GPU 显存时也算放得下，返回 True（这里忽略 decode 自身的激活和碎片）。

    出处：第六篇 · 结论（显存四块）；第七篇 · A. 判断与计算（第 9 题）。

    English
    -------

    Do the weights and the KV cache of ``n_requests`` full contexts fit in one GPU?

    Args:
        config: as for :func:`kv_cache_bytes`.
        n_requests: concurrent requests, each holding ``context_len`` tokens in the cache.
        context_len: tokens per request.
        gpu_bytes: the GPU's memory, in bytes.
        weight_bytes: bytes of the model's weights.
        bytes_per_element: bytes of one cached number.

    Returns:
        A plain bool, True also when they fill the GPU's memory exactly (decode's own
        activations and fragmentation are ignored here).

    Source: 第六篇 · 结论 (显存四块) / part 6, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q9.
    """
    raise NotImplementedError("A9: fits_on_gpu")
