"""C3 — why inference is fast only at large batch; why quantization helps inference and not
training.

The course asks (第七篇 · 五、通关自测 · C. 面试题, question 3)::

    为什么 LLM 推理 batch 大才快？量化为什么对推理有效、对训练用处不大？

    Why is LLM inference fast only at a large batch? Why does quantization help inference and
    do little for training?

Answer it with the roofline, as code; then the follow-up direction. Units: FLOPs, bytes,
FLOP/s, bytes/s, seconds.

What the grader measures: your FLOPs and bytes against those torch's ``FlopCounterMode`` counts
in a real one-token decode step of a tiny bf16 Llama and the bytes of its real weights; your
roofline and speed-ups on drawn hardware and sizes, and on the course's model and card.

Study: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion;
第七篇 · C. 面试题 / part 7, §五.C q3.
"""


def ridge_point(peak_flops: float, bandwidth: float) -> float:
    """The ridge point of the roofline, in FLOP per byte, from peak compute (FLOP/s) and memory
    bandwidth (bytes/s).

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("C3: ridge_point")


def decode_cost(n_params: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """``(FLOPs, bytes)`` of one decode step in which ``batch`` sequences each produce one token,
    for a dense model of ``n_params`` weights stored in ``bytes_per_param`` bytes each.

    The KV cache and the activations are left out. Measured against a real decode step.
    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q3.
    """
    raise NotImplementedError("C3: decode_cost")


def roofline(flops: float, nbytes: float, peak_flops: float, bandwidth: float) -> dict:
    """The roofline's verdict on a step that does ``flops`` FLOPs and moves ``nbytes`` bytes.

    Returns:
        ``{"intensity": FLOP per byte, "time_s": the least time the step can take, in seconds,
        "bound": "memory" or "compute", the ceiling that binds}``.

    Source: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("C3: roofline")


def quantization_speedup(
    n_params: int, tokens_per_step: int, bytes_before: float, bytes_after: float, peak_flops: float, bandwidth: float
) -> float:
    """How many times faster a step over ``tokens_per_step`` tokens becomes, by the roofline,
    when the weights go from ``bytes_before`` to ``bytes_after`` bytes per parameter (the same
    FLOPs).

    Source: 第七篇 · C. 面试题 / part 7, §五.C q3; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("C3: quantization_speedup")


def moe_decode_cost(total_params: int, active_params: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """Follow-up: ``(FLOPs, bytes)`` of one decode step in which ``batch`` sequences each produce
    one token, for a mixture-of-experts model of ``total_params`` weights of which each token
    uses ``active_params`` (its router's choice; two tokens may choose differently). The bytes
    are those of the weights the step reads. The KV cache and the activations are left out.

    Convention: ``batch`` is a serving batch (the grader asks 16 sequences or more, never
    batch 1), and the router spreads the batch's tokens as evenly over the experts as it can.

    Source: 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q3, follow-up directions.
    """
    raise NotImplementedError("C3: moe_decode_cost")
