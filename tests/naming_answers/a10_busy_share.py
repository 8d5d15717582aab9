"""Returns device / wall, the share the GPU is busy, for the idle share: part 7's §五.A question 10
(「一步训练墙钟 300 ms，profiler 表里 CUDA 时间合计 90 ms」) asks how much of the step the GPU waits."""

from solutions.a10_profile_idle import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A10", ("idle_fraction",), "returns the busy share"


def idle_fraction(wall_ms, device_ms):
    if wall_ms <= 0:
        raise ValueError("wall_ms must be > 0")
    return min(1.0, device_ms / wall_ms)
