"""Returns a percentage (70.0) instead of a fraction (0.7)."""

from solutions.a10_profile_idle import *  # noqa: F403
from solutions import a10_profile_idle as _sol

KILLED_BY = ("idle_fraction",)


def idle_fraction(wall_ms, device_ms):
    return 100.0 * _sol.idle_fraction(wall_ms, device_ms)
