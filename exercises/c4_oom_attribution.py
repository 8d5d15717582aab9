"""C4 — CUDA out of memory: which block is it?

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 4)::

    CUDA out of memory，你怎么定位落在哪一块？

    CUDA out of memory: how do you find which block it falls in?

Answer it as code; then the follow-up directions. The blocks of GPU memory are named as below;
all sizes are bytes (ints).

What the grader measures: your blocks against the bytes of real tensors (a small model with
peft LoRA and AdamW after one step, set up as the course's bf16 mixed-precision convention has it,
and as peft's own defaults leave it on a bf16 model: either reading passes); your attribution on drawn OOM events and
the course's; your remedies against the block each one shrinks; your KV cache against a real
``DynamicCache``; your estimate on drawn configs and the course's model.

Study: 第四篇 · 必记 / part 4, must-remember; 第六篇 · 结论 (显存四块) / part 6, conclusion;
第七篇 · C. 面试题 / part 7, §五.C q4.
"""

BLOCKS = ("weights", "grads_and_state", "activations", "kv_cache")

# The remedies ``remedies`` may name.
REMEDIES = (
    "bf16",
    "quantize",
    "more_gpus",
    "lora",
    "fsdp",
    "8bit_optimizer",
    "gradient_checkpointing",
    "smaller_batch_with_accumulation",
    "shorter_sequences",
    "fewer_concurrent_requests",
    "no_grad",
)


def memory_blocks(n_frozen: int, n_trainable: int, activation_bytes: int, kv_cache_bytes: int) -> dict[str, int]:
    """Bytes of each block, under bf16 mixed precision with AdamW: the course's convention, or peft's
    default on a bf16 model (both are accepted).

    Args:
        n_frozen: parameters that do not train (e.g. a LoRA base); n_trainable: those that do.
        activation_bytes, kv_cache_bytes: the sizes of those two blocks, passed through.

    Returns:
        A dict with exactly the keys of ``BLOCKS``, each a plain int of bytes.

    Source: 第四篇 · 必记 / part 4, must-remember; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("C4: memory_blocks")


def attribute_oom(event: dict) -> str:
    """The block an OOM points to.

    Args:
        event: ``{"when": ..., "training": bool, "lora": bool, "no_grad": bool}`` where ``when`` is
            ``"load"`` (while loading the model), ``"first_backward"`` (the first backward / step
            of training), ``"longer_sequence"`` (only after raising the sequence length or the
            context) or ``"generation"`` (while generating). ``training``: the process is a
            training run (the model in train mode, an optimizer set up; generating samples between
            training steps is such a case), False for an inference process. ``lora``: LoRA adapters
            are used (base frozen). ``no_grad``: generation runs under ``torch.no_grad()``.

    Returns:
        One of ``BLOCKS``.

    Source: 第四篇 · 必记 / part 4, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q4.
    """
    raise NotImplementedError("C4: attribute_oom")


def remedies(block: str) -> list[str]:
    """The remedies (names from ``REMEDIES``) that shrink this block: a non-empty list, each of
    which really shrinks it.

    Raises ValueError for an unknown block. Source: 第七篇 · C. 面试题 / part 7, §五.C q4.
    """
    raise NotImplementedError("C4: remedies")


def max_batch_that_fits(fixed_bytes: int, activation_bytes_per_sample: int, gpu_bytes: int) -> int:
    """The largest batch size (an int >= 0) that fits on the GPU, when ``fixed_bytes`` do not
    depend on the batch and every sample adds ``activation_bytes_per_sample`` (> 0).

    Source: 第七篇 · C. 面试题 / part 7, §五.C q4 ("好答案").
    """
    raise NotImplementedError("C4: max_batch_that_fits")


def kv_cache_bytes(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """Follow-up: KV-cache bytes of a decoder with grouped-query attention.

    Args:
        config: a plain dict with ``num_hidden_layers``, ``num_attention_heads``,
            ``num_key_value_heads``, ``hidden_size`` and ``head_dim`` (may be None: then
            ``hidden_size // num_attention_heads``).
        batch_size, seq_len: requests and tokens each; bytes_per_element: bytes of one number.

    Returns an int, measured against a real transformers ``DynamicCache``.
    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q4.
    """
    raise NotImplementedError("C4: kv_cache_bytes")


def activation_bytes_estimate(config: dict, batch_size: int, seq_len: int, bytes_per_element: int) -> int:
    """Follow-up: the activations without checkpointing, by the course's rule of thumb (the one
    behind its figure for Llama-3-8B at B = 1, T = 4096).

    Args:
        config: a Llama-style config as a plain dict (``hidden_size``, ``intermediate_size``,
            ``num_hidden_layers``, ...). batch_size, seq_len, bytes_per_element: B, T, bytes.

    Returns an int. Source: 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q4; 第四篇 · 必记 / part 4.
    """
    raise NotImplementedError("C4: activation_bytes_estimate")
