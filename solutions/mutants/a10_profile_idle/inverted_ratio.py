"""Inverts the ratio: idle = device / wall (300 ms wall, 90 ms device -> "30% idle")."""

from solutions.a10_profile_idle import *  # noqa: F403
from solutions import a10_profile_idle as _sol

KILLED_BY = ("idle_fraction", "classifies_real_profiles")


def idle_fraction(wall_ms, device_ms):
    if wall_ms <= 0:
        raise ValueError("wall_ms must be > 0")
    return min(1.0, device_ms / wall_ms)


def classify_step(summary):
    ops = summary["ops"]
    if idle_fraction(summary["wall_ms"], device_time_ms(ops)) > 0.5:
        return "input-bound"
    return "compute-bound" if _sol.gemm_attention_share(ops) >= 0.5 else "overhead-bound"
