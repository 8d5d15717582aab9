"""C3 — 为什么推理只有 batch 大才快；为什么量化对推理有效、对训练不然。

课程问（第七篇 · 五、通关自测 · C. 面试题，第 3 题）::

    为什么 LLM 推理 batch 大才快？量化为什么对推理有效、对训练用处不大？

用 roofline 作答，写成代码；然后是追问方向。单位：FLOPs、bytes、FLOP/s、bytes/s、秒。

评分器测什么：你的 FLOPs 和字节数与 torch 的 ``FlopCounterMode`` 在一个很小的 bf16 Llama 的真实单 token
decode 步里数出的相比，以及它真实权重的字节数；你的 roofline 和加速比在抽取的硬件与大小上、以及课程的
模型与卡上。

学习：第六篇 · 必记；第六篇 · 结论；第七篇 · C. 面试题（第 3 题）。

English
-------

C3 — why inference is fast only at large batch; why quantization helps inference and not
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
    """roofline 的拐点（ridge point），以每字节的 FLOP 数计，由峰值算力（FLOP/s）和显存带宽（bytes/s）得出。

    出处：第六篇 · 必记。

    English
    -------

    The ridge point of the roofline, in FLOP per byte, from peak compute (FLOP/s) and memory
    bandwidth (bytes/s).

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("C3: ridge_point")


def decode_cost(n_params: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """一个 dense 模型（``n_params`` 个权重，每个以 ``bytes_per_param`` 字节存储）在 ``batch`` 条序列各生成
    一个 token 的一步 decode 中的 ``(FLOPs, bytes)``。

    不算 KV cache 和激活。与一次真实的 decode 步相比。
    出处：第六篇 · 必记；第七篇 · C. 面试题（第 3 题）。

    English
    -------

    ``(FLOPs, bytes)`` of one decode step in which ``batch`` sequences each produce one token,
    for a dense model of ``n_params`` weights stored in ``bytes_per_param`` bytes each.

    The KV cache and the activations are left out. Measured against a real decode step.
    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · C. 面试题 / part 7, §五.C q3.
    """
    raise NotImplementedError("C3: decode_cost")


def roofline(flops: float, nbytes: float, peak_flops: float, bandwidth: float) -> dict:
    """roofline 对一个做 ``flops`` 次 FLOP、搬运 ``nbytes`` 字节的步的结论。

    返回：
        一个 dict：``"intensity"``，以每字节的 FLOP 数计；``"time_s"``，这一步最少要花的时间（秒）；
        ``"bound"``，``"memory"`` 或 ``"compute"``，起约束作用的那个上限。

    出处：第六篇 · 必记；第六篇 · 结论。

    English
    -------

    The roofline's verdict on a step that does ``flops`` FLOPs and moves ``nbytes`` bytes.

    Returns:
        A dict: ``"intensity"``, in FLOP per byte; ``"time_s"``, the least time the step can
        take, in seconds; ``"bound"``, ``"memory"`` or ``"compute"``, the ceiling that binds.

    Source: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("C3: roofline")


def quantization_speedup(
    n_params: int, tokens_per_step: int, bytes_before: float, bytes_after: float, peak_flops: float, bandwidth: float
) -> float:
    """当权重从每参数 ``bytes_before`` 字节变为 ``bytes_after`` 字节（FLOPs 不变）时，按 roofline，一个处理
    ``tokens_per_step`` 个 token 的步会快多少倍。

    出处：第七篇 · C. 面试题（第 3 题）；第六篇 · 结论。

    English
    -------

    How many times faster a step over ``tokens_per_step`` tokens becomes, by the roofline,
    when the weights go from ``bytes_before`` to ``bytes_after`` bytes per parameter (the same
    FLOPs).

    Source: 第七篇 · C. 面试题 / part 7, §五.C q3; 第六篇 · 结论 / part 6, conclusion.
    """
    raise NotImplementedError("C3: quantization_speedup")


def moe_decode_cost(total_params: int, active_params: int, batch: int, bytes_per_param: float) -> tuple[float, float]:
    """追问：一个 mixture-of-experts 模型（共 ``total_params`` 个权重，每个 token 用其中 ``active_params``
    个：由它的 router 选择；两个 token 可能选得不同）在 ``batch`` 条序列各生成一个 token 的一步 decode 中的
    ``(FLOPs, bytes)``。bytes 是这一步读取的权重的字节数。不算 KV cache 和激活。

    约定：``batch`` 是一个服务时的 batch（评分器问 16 条序列或更多，从不问 batch 1），router 把这个 batch
    的 token 尽可能均匀地分到各个 expert 上。

    出处：第七篇 · C. 面试题（追问方向）（第 3 题）。

    English
    -------

    Follow-up: ``(FLOPs, bytes)`` of one decode step in which ``batch`` sequences each produce
    one token, for a mixture-of-experts model of ``total_params`` weights of which each token
    uses ``active_params`` (its router's choice; two tokens may choose differently). The bytes
    are those of the weights the step reads. The KV cache and the activations are left out.

    Convention: ``batch`` is a serving batch (the grader asks 16 sequences or more, never
    batch 1), and the router spreads the batch's tokens as evenly over the experts as it can.

    Source: 第七篇 · C. 面试题 (追问方向) / part 7, §五.C q3, follow-up directions.
    """
    raise NotImplementedError("C3: moe_decode_cost")
