"""A10 — where did the step's time go?

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 10)::

    一步训练墙钟 300 ms，profiler 表里 CUDA 时间合计 90 ms、aten::mm 与 attention 占其中 60%。瓶颈最可能在哪？

    One training step takes 300 ms of wall-clock time; the profiler table's CUDA time adds up
    to 90 ms, aten::mm and attention being 60% of it. Where is the bottleneck most likely?

Answer it from a profiler table. The grader profiles real training steps (on CPU, where the
"device" is the CPU and an op's device time is its self CPU time) and hands you what the table
says, as plain data. An op row, as in ``prof.key_averages()``, is a dict::

    {"name": "aten::add", "count": 12, "self_ms": 1.5, "total_ms": 2.25}

``self_ms`` is the time spent in the op itself; ``total_ms`` is the time from its start to its
end, the ops it called included (``aten::linear`` calls ``aten::addmm``, for instance).

What the grader measures: your numbers against the same rows, and your label against real
profiles of steps whose time goes to different places.

Study: 第六篇 · 必记 (profiler) / part 6, must-remember; 第六篇 · 结论 / part 6, conclusion.
"""


def device_time_ms(ops: list[dict]) -> float:
    """The total time the device was busy running ops in the profiled region, in milliseconds.

    Args:
        ops: op rows (see the module docstring), one per operator name, times in ms.

    Returns:
        A float, in ms.

    Source: 第六篇 · 结论 (profiler) / part 6, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q10.
    """
    raise NotImplementedError("A10: device_time_ms")


def idle_fraction(wall_ms: float, device_ms: float) -> float:
    """The fraction of the step's wall-clock time during which the device was idle.

    Args:
        wall_ms: wall-clock time of the step(s), in ms.
        device_ms: device time over the same steps, in ms, >= 0 (as :func:`device_time_ms`).

    Returns:
        A float in [0, 1] (a fraction, not a percentage); 0.0 when the device time exceeds the
        wall time (overlapping streams).

    Raises:
        ValueError: ``wall_ms <= 0``.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q10.
    """
    raise NotImplementedError("A10: idle_fraction")


def classify_step(summary: dict) -> str:
    """Where the step's time went, from a profiler summary.

    Args:
        summary: ``{"wall_ms": float, "ops": [op rows]}``: the wall-clock time of the profiled
            training steps and the profiler's op rows for them (ms).

    Returns:
        One of three labels:
        ``"input-bound"``: the bottleneck is outside the device's own work (it waits);
        ``"compute-bound"``: the device's time goes where a healthy training step's should;
        ``"overhead-bound"``: the device is busy, but mostly with something else.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q10.
    """
    raise NotImplementedError("A10: classify_step")
