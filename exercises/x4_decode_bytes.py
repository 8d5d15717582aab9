"""X4 — why decode is slow: the experiment, on paper.

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
    """The lower bound of one decode step at batch 1 (one new token), in milliseconds, for a
    dense model of ``n_params`` weights of ``bytes_per_param`` bytes, on an accelerator of
    ``peak_flops`` FLOP/s and ``bandwidth`` bytes/s.

    Source: 第六篇 · 必记 / part 6, must-remember.
    """
    raise NotImplementedError("X4: decode_floor_ms")


def decode_step_ms(n_params: int, bytes_per_param: float, batch: int, peak_flops: float, bandwidth: float) -> float:
    """The time of one decode step of ``batch`` sequences (one new token each) for a dense
    model of ``n_params`` weights of ``bytes_per_param`` bytes, by the roofline, in
    milliseconds (peak compute in FLOP/s, bandwidth in bytes/s).

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · 四、常见误区 / part 7, §四.
    """
    raise NotImplementedError("X4: decode_step_ms")
