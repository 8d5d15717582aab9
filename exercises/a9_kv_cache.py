"""A9 — KV-cache bytes (part 7, §五.A question 9; part 6, the fourth block of GPU memory).

Llama-3-8B in bf16 serves 128 concurrent requests with 4K context each. How big is the KV
cache, and does it fit on one 80 GB card next to the weights? Work it out from ``config.json``.
"""


def kv_cache_bytes(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """Bytes of the KV cache after ``batch_size`` sequences of ``seq_len`` tokens each.

    Args:
        config: a plain dict with the fields of a Llama/Qwen2 ``config.json``:
            ``hidden_size``, ``num_hidden_layers``, ``num_attention_heads``,
            ``num_key_value_heads`` (GQA: K and V have fewer heads than Q), ``vocab_size``,
            ``intermediate_size``, ... and, optionally, ``head_dim`` (if absent it is
            ``hidden_size // num_attention_heads``; if present it may differ from that).
        batch_size: number of sequences (requests) held in the cache, >= 1.
        seq_len: tokens per sequence held in the cache (prompt + generated so far), >= 1.
        bytes_per_element: bytes of one cached number: 2 for bf16/fp16, 4 for fp32, 8 for fp64.

    Returns:
        Bytes as a plain int (not KB, not GB), equal to the ``nbytes`` of every key and every
        value tensor a transformers ``DynamicCache`` holds after a forward pass with
        ``use_cache=True`` over a ``[batch_size, seq_len]`` batch (each layer caches keys and
        values of shape ``[batch, n_kv_heads, seq_len, head_dim]``).
        Llama-3-8B, one token, bf16 -> 131,072 bytes.

    Source: part 6, must-remember "KV cache per token per layer is 2 x n_kv x d_head numbers:
    Llama-3-8B 2 x 8 x 128 x 32 x 2 = 131 KB/token".
    """
    raise NotImplementedError("A9: kv_cache_bytes")


def fits_on_gpu(config: dict, n_requests: int, context_len: int, gpu_bytes: int, weight_bytes: int,
                bytes_per_element: int = 2) -> bool:
    """Whether the weights plus the KV cache of ``n_requests`` full contexts fit in one GPU.

    Args:
        config: as for :func:`kv_cache_bytes`.
        n_requests: concurrent requests, each holding ``context_len`` tokens in the cache.
        context_len: tokens per request.
        gpu_bytes: GPU memory in bytes (an "80 GB" card: ``80 * 10**9``).
        weight_bytes: bytes of the model's weights (Llama-3-8B in bf16: about ``16.06 * 10**9``).
        bytes_per_element: bytes of one cached number (2 for a bf16 cache).

    Returns:
        A plain bool: True when ``weight_bytes + KV-cache bytes <= gpu_bytes`` (activations of
        decode and fragmentation are ignored here), else False. E.g. Llama-3-8B, 128 requests x
        4096 tokens, 80 GB card, 16 GB weights -> False (68.7 GB + 16 GB ~ 85 GB).

    Source: part 6, "four blocks of GPU memory: weights, gradients and optimizer state,
    activations, KV cache"; part 7 §五.A question 9.
    """
    raise NotImplementedError("A9: fits_on_gpu")
