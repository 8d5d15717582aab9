"""R — recall: the numbers and conclusions of the six parts, closed book.

The course asks (第七篇 · 开篇)::

    哪些数字与结论必须能脱口而出？

    Which numbers and conclusions must you be able to say without thinking?

One answer sheet. Each function below asks for one of them, as a value or a small formula, so
that the grader can check what your answer means rather than how it is spelled: formulas are
evaluated on drawn inputs, einsum strings are run on random arrays, names are matched by meaning.

Units: FLOP/s and bytes/s are plain numbers (a "2 TFLOPS" device is ``2e12``); a name ending in
``_ms`` returns milliseconds; memory is in bytes; losses are in nats; accuracies are fractions in
[0, 1] (0.42, not 42).

What the grader measures: every answer against ground truth computed from the real libraries
(torch, numpy, transformers), on the course's own cases and on drawn ones. The feedback names
where to re-read; the value itself is shown only after repeated misses (or ``--reveal``).

Study: 第七篇 · 二、逐篇回顾 (each part's 必记) / part 7, §二: every part's must-remember list.
"""

# The topics part_of_topic is asked about (one spelling, shared with the grader).
from grader.given.recall_topics import TOPICS  # noqa: F401


def bytes_per_param_parts() -> dict[str, int]:
    """How many bytes does one trainable parameter cost in training with bf16 mixed precision
    and AdamW, part by part?

    Returns:
        A dict ``{name of a part of the training state: bytes per parameter}``, one entry per
        part, values ints. Name each part in the course's words, Chinese or English, or a
        common synonym (the grader matches names by meaning). Activations are not part of this
        account. "bf16 mixed precision" may be read either way the course uses the words (part 3's
        reading of the mechanism, part 4's account of the memory): both are accepted.

    Measured: each part's bytes against the element size of the tensor torch keeps for it, and
    their sum.

    Source: 第四篇 · 必记 / part 4, must-remember.
    """
    raise NotImplementedError("R: bytes_per_param_parts")


def ridge_point(peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    """The ridge point of the roofline of an accelerator with this peak compute and this memory
    bandwidth.

    Args:
        peak_flops: peak compute, in FLOP/s.
        bandwidth_bytes_per_s: memory bandwidth, in bytes/s.

    Returns:
        The ridge point, in FLOP per byte, as a float.

    Measured: on drawn accelerators and on the course's card.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: ridge_point")


def decode_floor_ms(n_params: float, bytes_per_param: float, peak_flops: float, bandwidth_bytes_per_s: float) -> float:
    """The lower bound on the time of one decode step (batch 1: one new token) of a dense
    model, in milliseconds.

    Args:
        n_params: number of model parameters.
        bytes_per_param: bytes of one stored weight.
        peak_flops: peak compute, in FLOP/s.
        bandwidth_bytes_per_s: memory bandwidth, in bytes/s.

    Returns:
        Milliseconds per token, as a float.

    Measured: on drawn models and accelerators, and on the course's model and card.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: decode_floor_ms")


def kv_cache_bytes_per_token(
    n_layers: int, n_heads: int, n_kv_heads: int, head_dim: int, bytes_per_element: int
) -> int:
    """Bytes of KV cache that one token occupies, over all layers of a decoder-only transformer.

    Args:
        n_layers: ``num_hidden_layers`` of the config.
        n_heads: ``num_attention_heads``.
        n_kv_heads: ``num_key_value_heads``.
        head_dim: the size of one attention head.
        bytes_per_element: bytes of one cached number.

    Returns:
        Bytes per token, as an int.

    Measured: against the tensors a real transformers ``DynamicCache`` holds, for drawn configs
    and for the course's model.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: kv_cache_bytes_per_token")


def first_step_loss(vocab_size: int) -> float:
    """The cross-entropy loss you should see at the first training step of a freshly initialised
    language model whose vocabulary has ``vocab_size`` tokens.

    Args:
        vocab_size: V, an int >= 2.

    Returns:
        The loss, in nats (the unit ``F.cross_entropy`` reports), as a float.

    Measured: on drawn V and on the course's vocabulary.

    Source: 第三篇 · 必记 / part 3, must-remember.
    """
    raise NotImplementedError("R: first_step_loss")


def ignore_index() -> int:
    """The label value that takes a position out of the cross-entropy loss (the SFT loss mask).

    Returns:
        The value, as an int.

    Measured: that value, and that labels set to it really drop out of the loss.

    Source: 第三篇 · 必记 / part 3, must-remember; 第五篇 · 必记 / part 5, must-remember.
    """
    raise NotImplementedError("R: ignore_index")


def einsum_qk(with_heads: bool = False) -> str:
    """The ``np.einsum`` / ``torch.einsum`` subscripts of the attention scores Q Kᵀ.

    Args:
        with_heads: False: Q is ``(batch, T, d)``, K is ``(batch, S, d)``, the scores are
            ``(batch, T, S)``. True: Q is ``(batch, heads, T, d)``, K is
            ``(batch, heads, S, d)``, the scores are ``(batch, heads, T, S)``.

    Returns:
        The subscripts string; any letters will do.

    Measured: ``np.einsum(subscripts, Q, K)`` against ``Q @ Kᵀ`` on random arrays.

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("R: einsum_qk")


def einsum_pv(with_heads: bool = False) -> str:
    """The ``np.einsum`` / ``torch.einsum`` subscripts of the attention output P V.

    Args:
        with_heads: False: P (the softmaxed scores) is ``(batch, T, S)``, V is ``(batch, S, d)``,
            the output is ``(batch, T, d)``. True: P is ``(batch, heads, T, S)``, V is
            ``(batch, heads, S, d)``, the output is ``(batch, heads, T, d)``.

    Returns:
        The subscripts string; any letters will do.

    Measured: ``np.einsum(subscripts, P, V)`` against ``P @ V`` on random arrays.

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("R: einsum_pv")


def ci95_half_width(p: float, n: int) -> float:
    """The half-width of the 95% confidence interval of an accuracy, as the course computes it.

    Args:
        p: the measured accuracy, a fraction in [0, 1].
        n: the number of evaluated problems, n >= 1.

    Returns:
        The half-width, a fraction like ``p`` (the interval is ``p ± half_width``).

    Measured: on drawn accuracies and set sizes.

    Source: 第二篇 · 必记 / part 2, must-remember.
    """
    raise NotImplementedError("R: ci95_half_width")


def thread_speedup(n_threads: int, n_cores: int) -> float:
    """How much faster CPU-bound pure-Python work (a Python loop over strings, no I/O) runs when
    it is split over ``n_threads`` threads of one standard CPython process, on a machine with
    ``n_cores`` cores.

    Args:
        n_threads: threads used, >= 1.
        n_cores: CPU cores of the machine, >= 1.

    Returns:
        serial time / threaded time, as a float (roughly).

    Measured: for drawn numbers of threads and cores, within a tolerance.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("R: thread_speedup")


def part_of_topic(topic: str) -> int:
    """Which part of the series teaches this topic?

    Args:
        topic: one of the strings in ``TOPICS`` (this module), spelled exactly as there.

    Returns:
        The part's number, an int from 1 to 6.

    Measured: every topic of ``TOPICS``.

    Source: 第七篇 · 一、总览：系列回答的问题与主线 / part 7, §一, the table of the six parts.
    """
    raise NotImplementedError("R: part_of_topic")


def run_record_items() -> list[str]:
    """The items of the minimal record of one run, the one that makes an experiment
    reproducible three months later.

    Returns:
        A list of short names, one per item, in any order, in the course's words, Chinese or
        English, or a common synonym; names are matched by meaning (two spellings of the same
        item count as that item, twice).

    Measured: the set of items: none missing, none extra, none named twice.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("R: run_record_items")
