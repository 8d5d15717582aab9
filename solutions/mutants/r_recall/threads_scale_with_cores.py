"""Believes threads speed up CPU-bound Python up to the core count (ignores the GIL)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("thread_speedup",)


def thread_speedup(n_threads, n_cores):
    return float(min(n_threads, n_cores))
