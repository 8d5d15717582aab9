"""A10 — where did the step's time go (part 7, §五.A question 10; part 6, reading the profiler).

A training step takes 300 ms of wall-clock time; the profiler's table adds up to 90 ms of device
time, and aten::mm plus attention are 60% of that. Where is the bottleneck? Answer it from a
profiler table: the checks profile real training steps (on CPU, where the "device" is the CPU
and an op's device time is its self CPU time) and hand you what the table says, as plain data.

An op row, as in ``prof.key_averages()``, is a dict::

    {"name": "aten::mm", "count": 24, "self_ms": 31.2, "total_ms": 31.9}

``self_ms`` is the time spent in the op itself; ``total_ms`` also includes the ops it called
(``aten::linear`` -> ``aten::addmm``), so totals count nested work more than once.
"""

GEMM_ATTENTION_MARKERS = ("mm", "attention")  # aten::mm, addmm, bmm, baddbmm, ..._attention...


def device_time_ms(ops: list[dict]) -> float:
    """Total device time of the profiled region, in milliseconds.

    Args:
        ops: op rows (see the module docstring), one per operator name, all in milliseconds.

    Returns:
        A float in ms: the time the device was actually busy running ops. Each moment of device
        work must be counted once.

    Source: part 6, "reading the profiler table"; part 7 §五.A question 10 ("CUDA time adds up
    to 90 ms").
    """
    raise NotImplementedError("A10: device_time_ms")


def idle_fraction(wall_ms: float, device_ms: float) -> float:
    """The fraction of the step's wall-clock time during which the device was idle.

    Args:
        wall_ms: wall-clock time of the step(s), in ms, > 0.
        device_ms: device time over the same steps, in ms, >= 0 (from :func:`device_time_ms`).

    Returns:
        A float in [0, 1] (a fraction, not a percentage). Wall 300 ms with 90 ms of device
        time -> 0.7. Device time above the wall time (overlapping streams) gives 0.0.

    Raises:
        ValueError: ``wall_ms <= 0``.

    Source: part 6, must-remember "GPU time much smaller than wall time means the GPU is idle";
    part 7 §五.A question 10 ("the GPU is idle 70% of the time").
    """
    raise NotImplementedError("A10: idle_fraction")


def classify_step(summary: dict) -> str:
    """Where the step's time went, from a profiler summary.

    Args:
        summary: ``{"wall_ms": float, "ops": [op rows]}``: the wall-clock time of the profiled
            training steps and the profiler's op rows for them (ms).

    Returns:
        One of three strings:
        ``"input-bound"``: the device is idle more than half of the wall time: it waits for data
        loading, synchronisation (``.item()`` every step) or launches; a faster GPU won't help.
        ``"compute-bound"``: otherwise, when GEMM and attention ops (names containing one of
        ``GEMM_ATTENTION_MARKERS``) take at least half of the device time: healthy.
        ``"overhead-bound"``: otherwise: the device is busy, but mostly with copies
        (``copy_``, ``contiguous``), elementwise or many small ops: shape conversions or
        launch overhead eat the time.

    Source: part 6, must-remember "GEMM + attention should dominate; copy_ / contiguous or
    thousands of small ops dominating means shape conversion or launch overhead"; part 7 §五.A
    question 10.
    """
    raise NotImplementedError("A10: classify_step")
