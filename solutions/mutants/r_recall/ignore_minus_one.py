"""Uses -1 as the ignore index (a common guess; cross_entropy raises on it)."""

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ignore_index",)


def ignore_index():
    return -1
