"""C4 — CUDA out of memory: which block is it? (part 7, §五.C question 4; parts 4 and 6).

GPU memory holds four blocks: the weights, the gradients with the optimizer state, the
activations and (at inference) the KV cache. An OOM is attributed to a block by *when* it
happens, and each block has its own remedies. All sizes are in bytes (ints).

Block names used throughout: ``"weights"``, ``"grads_and_state"``, ``"activations"``, ``"kv_cache"``.
"""

BLOCKS = ("weights", "grads_and_state", "activations", "kv_cache")

# Remedy names accepted by ``remedies``.
REMEDIES = ("bf16", "quantize", "more_gpus", "lora", "fsdp", "8bit_optimizer", "gradient_checkpointing",
            "smaller_batch_with_accumulation", "shorter_sequences", "fewer_concurrent_requests", "no_grad")


def memory_blocks(n_frozen: int, n_trainable: int, activation_bytes: int, kv_cache_bytes: int) -> dict[str, int]:
    """Bytes of each of the four blocks under bf16 mixed precision with AdamW.

    Args:
        n_frozen: parameters that do not train (e.g. a LoRA base); n_trainable: those that do.
        activation_bytes, kv_cache_bytes: the sizes of those two blocks, passed through.

    Returns:
        ``{"weights": ..., "grads_and_state": ..., "activations": ..., "kv_cache": ...}``: weights
        are the bf16 copies of every parameter (2 bytes each); grads_and_state is what a
        trainable parameter costs beyond its bf16 weight (bf16 grad, fp32 master, AdamW m and v).

    Source: part 4 (16 = 2 + 14 bytes per trainable parameter) and part 6 (the fourth block).
    """
    raise NotImplementedError("C4: memory_blocks")


def attribute_oom(event: dict) -> str:
    """The block an OOM points to, from when it happened.

    Args:
        event: ``{"when": ..., "training": bool, "lora": bool, "no_grad": bool}`` where ``when`` is
            ``"load"`` (while loading the model), ``"first_backward"`` (the first backward/step of
            training), ``"longer_sequence"`` (only after raising the sequence length / context) or
            ``"generation"`` (while generating). ``lora``: LoRA adapters are used (base frozen).
            ``no_grad``: generation runs under ``torch.no_grad()``.

    Returns:
        One of the four block names. Rules of the course: loading -> weights; first backward ->
        grads and state, except with LoRA (14 bytes/param only for the small adapters: "LoRA and
        still OOM is not the parameters, look at activations"); longer sequences -> activations in
        training, KV cache at inference; generation -> activations kept for a backward that never
        comes if no_grad is forgotten, otherwise the KV cache (too many concurrent requests).

    Source: part 4, must-remember "attribute an OOM by when it happens"; part 7 §五.C question 4.
    """
    raise NotImplementedError("C4: attribute_oom")


def remedies(block: str) -> list[str]:
    """Remedies (names from ``REMEDIES``) that shrink this block, and only this block.

    E.g. weights: bf16 / quantize / more GPUs; grads and state: LoRA / FSDP / 8-bit optimizer;
    activations: gradient checkpointing / smaller batch + accumulation / shorter sequences;
    KV cache: fewer concurrent requests / shorter sequences. Return at least one.
    Raises ValueError for an unknown block. Source: part 7 §五.C question 4, key point 4.
    """
    raise NotImplementedError("C4: remedies")


def max_batch_that_fits(fixed_bytes: int, activation_bytes_per_sample: int, gpu_bytes: int) -> int:
    """The largest batch size B (>= 0) with fixed_bytes + B x activation_bytes_per_sample <= gpu_bytes.

    "Predict with numbers whether reducing the batch is enough": 0 means no batch fits (the
    fixed part alone overflows), so a smaller batch cannot help. activation_bytes_per_sample > 0.
    Source: part 7 §五.C question 4, "a good answer predicts whether reducing batch is enough".
    """
    raise NotImplementedError("C4: max_batch_that_fits")


def kv_cache_bytes(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """KV-cache bytes of a decoder with grouped-query attention (GQA).

    Args:
        config: a plain dict with ``num_hidden_layers``, ``num_attention_heads``,
            ``num_key_value_heads``, ``hidden_size`` and ``head_dim`` (may be None: then
            hidden_size / num_attention_heads).
        batch_size, seq_len: requests and tokens each; bytes_per_element: 2 for bf16.

    Returns an int; checked against a real transformers DynamicCache. Llama-3-8B: 131,072 per token.
    Source: part 6, must-remember "KV cache per token = 2 x n_kv_heads x d_head x layers x bytes".
    """
    raise NotImplementedError("C4: kv_cache_bytes")


def activation_bytes_estimate(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """The course's activation estimate without checkpointing: per layer and token about 6 vectors
    of width d (hidden_size) and 3 of width d_ff (intermediate_size).

    Returns B x T x layers x (6 d + 3 d_ff) x bytes_per_element as an int.
    Llama-3-8B, B=1, T=4096, bf16 -> ~16.5 GiB. Source: part 4; part 7 §五.C question 4 follow-up.
    """
    raise NotImplementedError("C4: activation_bytes_estimate")
