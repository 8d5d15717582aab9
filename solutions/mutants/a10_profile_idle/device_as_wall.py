"""Treats the device time as the wall time: the step "took" what the table adds up to, so the
device is never idle (idle 0) and a data-loading stall goes unseen."""

from solutions.a10_profile_idle import *  # noqa: F403
from solutions import a10_profile_idle as _sol

KILLED_BY = ("idle_fraction", "classifies_real_profiles")


def idle_fraction(wall_ms, device_ms):
    if wall_ms <= 0:
        raise ValueError("wall_ms must be > 0")
    return max(0.0, 1.0 - device_ms / device_ms) if device_ms > 0 else 0.0


def classify_step(summary):
    ops = summary["ops"]
    if idle_fraction(summary["wall_ms"], device_time_ms(ops)) > 0.5:
        return "input-bound"
    return "compute-bound" if _sol.gemm_attention_share(ops) >= 0.5 else "overhead-bound"
