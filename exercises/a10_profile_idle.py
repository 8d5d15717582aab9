"""A10 — 一步训练的时间去哪了？

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 10 题）::

    一步训练墙钟 300 ms，profiler 表里 CUDA 时间合计 90 ms、aten::mm 与 attention 占其中 60%。瓶颈最可能在哪？

从一张 profiler 表作答。评分器对真实的训练步做 profile（在 CPU 上，“设备”就是 CPU，一个 op 的设备
时间就是它的 self CPU 时间），把表里的内容以普通数据交给你。一行 op 记录，同 ``prof.key_averages()``，
是一个 dict::

    {"name": "aten::add", "count": 12, "self_ms": 1.5, "total_ms": 2.25}

``self_ms`` 是花在这个 op 自身的时间；``total_ms`` 是从它开始到结束的时间，包括它调用的 op（例如
``aten::linear`` 调用 ``aten::addmm``）。

评分器测什么：你的数字与同样的行相比，以及你的标签与时间花在不同地方的训练步的真实 profile 相比。

学习：第六篇 · 必记（profiler）；第六篇 · 结论。

English
-------

A10 — where did the step's time go?

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
    """在被 profile 的区间里设备忙于运行 op 的总时间，以毫秒计。

    参数：
        ops: op 记录行（见模块 docstring），每个算子名字一行，时间以 ms 计。

    返回：
        float，以 ms 计。

    出处：第六篇 · 结论（profiler）；第七篇 · A. 判断与计算（第 10 题）。

    English
    -------

    The total time the device was busy running ops in the profiled region, in milliseconds.

    Args:
        ops: op rows (see the module docstring), one per operator name, times in ms.

    Returns:
        A float, in ms.

    Source: 第六篇 · 结论 (profiler) / part 6, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q10.
    """
    raise NotImplementedError("A10: device_time_ms")


def idle_fraction(wall_ms: float, device_ms: float) -> float:
    """这一步的墙钟时间中设备空闲的比例。

    参数：
        wall_ms: 这一步（或这几步）的墙钟时间，以 ms 计。
        device_ms: 同样这几步的设备时间，以 ms 计，>= 0（同 :func:`device_time_ms`）。

    返回：
        [0, 1] 内的 float（比例，不是百分数）；设备时间超过墙钟时间时（stream 重叠）为 0.0。

    抛出：
        ValueError: ``wall_ms <= 0``。

    出处：第六篇 · 必记；第七篇 · A. 判断与计算（第 10 题）。

    English
    -------

    The fraction of the step's wall-clock time during which the device was idle.

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
    """从 profiler 汇总看，这一步的时间去哪了。

    参数：
        summary: 一个 dict：``"wall_ms"``（float），被 profile 的训练步的墙钟时间；``"ops"``，
            profiler 为它们给出的 op 记录行组成的 list（ms）。

    返回：
        三个标签之一：
        ``"input-bound"``：瓶颈在设备自身的工作之外（它在等）；
        ``"compute-bound"``：设备的时间花在一个健康的训练步该花的地方；
        ``"overhead-bound"``：设备在忙，但大多忙于别的事。

    出处：第六篇 · 必记；第七篇 · A. 判断与计算（第 10 题）。

    English
    -------

    Where the step's time went, from a profiler summary.

    Args:
        summary: a dict: ``"wall_ms"`` (float), the wall-clock time of the profiled training
            steps, and ``"ops"``, a list of the profiler's op rows for them (ms).

    Returns:
        One of three labels:
        ``"input-bound"``: the bottleneck is outside the device's own work (it waits);
        ``"compute-bound"``: the device's time goes where a healthy training step's should;
        ``"overhead-bound"``: the device is busy, but mostly with something else.

    Source: 第六篇 · 必记 / part 6, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q10.
    """
    raise NotImplementedError("A10: classify_step")
