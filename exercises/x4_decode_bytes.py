"""X4 — decode 为什么慢：纸上的实验。

课程把它列为误区之一，并问它为什么错（第七篇 · 四、常见误区，误区 · 为什么错 两列）::

    decode 慢是 GPU 算不过来

单位：bytes、bytes/s、FLOP/s、毫秒。

评分器测什么：你对真实模型（很小的 Llama，以及 meta 设备上 bf16 的真实 config）在抽取的硬件上给出的时间，
以及在课程的模型和卡上你的单步时间怎样随 batch 变化。

学习：第六篇 · 必记；第六篇 · 常见误解。

English
-------

X4 — why decode is slow: the experiment, on paper.

The course lists it among its misconceptions and asks why it is wrong (第七篇 · 四、常见误区,
columns 误区 · 为什么错)::

    decode 慢是 GPU 算不过来

    Decode is slow because the GPU cannot compute fast enough.

Units: bytes, bytes/s, FLOP/s, milliseconds.

What the grader measures: your times for real models (tiny Llamas, and real configs on the
meta device, in bf16) on drawn hardware, and how your step time changes with the batch on the
course's model and card.

Study: 第六篇 · 必记 / part 6, must-remember; 第六篇 · 常见误解 / part 6, misconceptions.
"""


def decode_floor_ms(n_params: int, bytes_per_param: float, peak_flops: float, bandwidth: float) -> float:
    """一个 dense 模型（``n_params`` 个权重，每个 ``bytes_per_param`` 字节），在峰值 ``peak_flops`` FLOP/s、
    带宽 ``bandwidth`` bytes/s 的加速器上，batch 1（一个新 token）时一步 decode 的下限，以毫秒计。

    出处：第六篇 · 必记。

    English
    -------

    The lower bound of one decode step at batch 1 (one new token), in milliseconds, for a
    dense model of ``n_params`` weights of ``bytes_per_param`` bytes, on an accelerator of
    ``peak_flops`` FLOP/s and ``bandwidth`` bytes/s.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("X4: decode_floor_ms")


def decode_step_ms(n_params: int, bytes_per_param: float, batch: int, peak_flops: float, bandwidth: float) -> float:
    """一个 dense 模型（``n_params`` 个权重，每个 ``bytes_per_param`` 字节）对 ``batch`` 条序列（各一个新
    token）做一步 decode 的时间，按 roofline，以毫秒计（峰值算力以 FLOP/s 计，带宽以 bytes/s 计）。

    出处：第六篇 · 必记；第七篇 · 四、常见误区。

    English
    -------

    The time of one decode step of ``batch`` sequences (one new token each) for a dense
    model of ``n_params`` weights of ``bytes_per_param`` bytes, by the roofline, in
    milliseconds (peak compute in FLOP/s, bandwidth in bytes/s).

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("X4: decode_step_ms")
