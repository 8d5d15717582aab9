"""R — recall: the must-remember facts of the six parts (part 7, §一 and §二).

One answer sheet. Each function is one fact, asked as a small formula or a value so that the
grader can check what it *means*, not how it is spelled: formulas are evaluated on drawn inputs
(and on the course's own numbers), einsum strings are run on random arrays, names are matched
by meaning (``"fp32 master weights"`` and ``"master"`` are the same part).

Units matter: FLOP/s and bytes/s are plain numbers (989 TFLOPS is ``989e12``, 3.35 TB/s is
``3.35e12``), times are in **milliseconds** where the name says ``_ms``, memory in **bytes**
(not GB, not GiB), losses in **nats** (natural log), accuracies as **fractions** (0.73, not 73).
"""

# The topics part_of_topic is asked about (one spelling, shared with the grader).
from grader.given.recall_topics import TOPICS  # noqa: F401


def bytes_per_param_parts() -> dict[str, int]:
    """The bytes each trainable parameter costs in training with bf16 mixed precision + AdamW.

    Returns:
        A dict from the name of each part of the training state to its bytes per parameter,
        one entry per part (the values sum to the bytes per trainable parameter). Name the
        parts plainly, e.g. ``"weights"``, ``"grads"``, ``"master"``, ``"adam_m"``,
        ``"adam_v"``; synonyms such as ``"bf16 weights"``, ``"gradients"``, ``"fp32 master
        weights"``, ``"exp_avg"`` / ``"first moment"``, ``"exp_avg_sq"`` / ``"second moment"``
        are understood. Values are ints, in bytes. Activations are not part of this account.

    Source: part 4, must-remember "16 bytes per trainable parameter = 2 + 2 + 4 + 4 + 4".
    """
    raise NotImplementedError("R: bytes_per_param_parts")


def ridge_point(peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    """The roofline's ridge point of an accelerator, in FLOP per byte.

    Args:
        peak_flops: peak compute in FLOP/s (H100 SXM bf16 dense: ``989e12``).
        bandwidth_bytes_per_s: memory bandwidth in bytes/s (H100 SXM: ``3.35e12``).

    Returns:
        The arithmetic intensity (FLOP/byte) above which a kernel is compute-bound and below
        which it is memory-bound, as a float. H100: about 295.

    Source: part 6, must-remember "ridge = 989e12 / 3.35e12 ~ 295 FLOP/byte".
    """
    raise NotImplementedError("R: ridge_point")


def decode_floor_ms(n_params: float, bytes_per_param: float, bandwidth_bytes_per_s: float) -> float:
    """The lower bound on the time of one decode step (one new token, batch 1), in milliseconds.

    Args:
        n_params: number of model parameters (Llama-3-8B: ``8.03e9``).
        bytes_per_param: bytes per stored weight (bf16: 2; 4-bit quantized: 0.5).
        bandwidth_bytes_per_s: memory bandwidth in bytes/s (H100: ``3.35e12``).

    Returns:
        Milliseconds per token, as a float (Llama-3-8B bf16 on an H100: about 4.8 ms).

    Source: part 6, must-remember "decode floor = bytes of weights / bandwidth: 16.06 GB /
    3.35 TB/s ~ 4.8 ms".
    """
    raise NotImplementedError("R: decode_floor_ms")


def kv_cache_bytes_per_token(n_layers: int, n_heads: int, n_kv_heads: int, head_dim: int,
                             bytes_per_element: int) -> int:
    """Bytes of KV cache one token occupies in a decoder-only transformer (all layers).

    Args:
        n_layers: number of transformer layers (``num_hidden_layers``; Llama-3-8B: 32).
        n_heads: number of query heads (``num_attention_heads``; Llama-3-8B: 32).
        n_kv_heads: number of key/value heads (``num_key_value_heads``; GQA: fewer than
            ``n_heads``; Llama-3-8B: 8).
        head_dim: size of one head (Llama-3-8B: 128).
        bytes_per_element: bytes of one cached number (bf16/fp16: 2, fp32: 4).

    Returns:
        Bytes per token as an int (Llama-3-8B in bf16: 131,072).

    Source: part 6, must-remember "KV cache per token = 2 x n_kv_heads x d_head x layers x
    bytes".
    """
    raise NotImplementedError("R: kv_cache_bytes_per_token")


def first_step_loss(vocab_size: int) -> float:
    """The cross-entropy loss expected at the first training step of a freshly initialised
    language model (near-uniform predictions over the vocabulary), in nats.

    Args:
        vocab_size: V, the number of classes (tokens) of the softmax; V >= 2.

    Returns:
        The expected first loss as a float, in nats (the unit of ``F.cross_entropy``).
        V = 128: about 4.85.

    Source: part 3, must-remember "the first-step loss should be ln V (5.07 ~ ln 128 = 4.85)".
    """
    raise NotImplementedError("R: first_step_loss")


def ignore_index() -> int:
    """The label value that ``F.cross_entropy`` / ``nn.CrossEntropyLoss`` leave out of the loss
    by default (the loss mask of SFT: prompt and padding positions get this label).

    Returns:
        The value as an int.

    Source: part 3, must-remember ".float() + ignore_index=...", part 5 "85% of tokens are ...".
    """
    raise NotImplementedError("R: ignore_index")


def einsum_qk(with_heads: bool = False) -> str:
    """The ``np.einsum`` / ``torch.einsum`` subscripts for the attention scores Q K^T.

    Args:
        with_heads: False: Q is ``(batch, T, d)``, K is ``(batch, S, d)`` and the scores are
            ``(batch, T, S)``. True: Q is ``(batch, heads, T, d)``, K is
            ``(batch, heads, S, d)`` and the scores are ``(batch, heads, T, S)``.

    Returns:
        The subscripts string, e.g. of the form ``"..,..->.."``; any letters will do. The
        grader runs ``np.einsum(subscripts, Q, K)`` and compares with ``Q @ K^T``.

    Source: part 2, must-remember "QK^T is ..., PV is ...; with heads ...".
    """
    raise NotImplementedError("R: einsum_qk")


def einsum_pv(with_heads: bool = False) -> str:
    """The ``np.einsum`` / ``torch.einsum`` subscripts for the attention output P V.

    Args:
        with_heads: False: P (the softmaxed scores) is ``(batch, T, S)``, V is
            ``(batch, S, d)`` and the output is ``(batch, T, d)``. True: P is
            ``(batch, heads, T, S)``, V is ``(batch, heads, S, d)``, the output is
            ``(batch, heads, T, d)``.

    Returns:
        The subscripts string; any letters will do. The grader runs
        ``np.einsum(subscripts, P, V)`` and compares with ``P @ V``.

    Source: part 2, must-remember "QK^T is ..., PV is ...".
    """
    raise NotImplementedError("R: einsum_pv")


def ci95_half_width(p: float, n: int) -> float:
    """The half-width of the 95% confidence interval of an accuracy (normal approximation).

    Args:
        p: the measured accuracy as a fraction in [0, 1] (0.73, not 73).
        n: the number of evaluated problems, n >= 1.

    Returns:
        The half-width, as a fraction like ``p`` (the interval is ``p +- half_width``).
        p = 0.5, n = 80: about 0.11, i.e. +-11 points: 80 problems cannot tell 5 points apart.

    Source: part 2, must-remember "ci95 = ...".
    """
    raise NotImplementedError("R: ci95_half_width")


def thread_speedup(n_threads: int, n_cores: int) -> float:
    """The speed-up of CPU-bound pure-Python work (e.g. tokenising or cleaning strings in a
    Python loop, no I/O) split over ``n_threads`` threads of one standard CPython process on a
    machine with ``n_cores`` cores, relative to running it serially.

    Args:
        n_threads: threads used, >= 1.
        n_cores: CPU cores of the machine, >= 1.

    Returns:
        serial time / threaded time, as a float (roughly, as measured in the course).

    Source: part 1, must-remember "CPU-bound work: serial / 8 threads / 8 processes = ...".
    """
    raise NotImplementedError("R: thread_speedup")


def part_of_topic(topic: str) -> int:
    """Which part of the course covers a topic.

    Parts: 1 Python, 2 NumPy / Pandas / Matplotlib, 3 the PyTorch training loop, 4 memory
    arithmetic (mixed precision, the memory account, multi-GPU), 5 Hugging Face, 6 GPU
    intuition & experiment management.

    Args:
        topic: one of the strings in ``TOPICS`` (imported above from
            ``grader/given/recall_topics.py``, which also names each one), spelled exactly as there.

    Returns:
        The part number, an int from 1 to 6.

    Source: part 7, §一: the table of the six parts.
    """
    raise NotImplementedError("R: part_of_topic")


def run_record_items() -> list[str]:
    """The items of the minimal run record that makes an experiment reproducible.

    Returns:
        A list of short names, one per item, in any order (e.g. ``"seed"``); names are matched
        by meaning (``"git commit"`` and ``"commit"`` are the same item).

    Source: part 6, must-remember "a run record has seven items: ...".
    """
    raise NotImplementedError("R: run_record_items")
