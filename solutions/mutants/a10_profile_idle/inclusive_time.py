"""Adds up the total (inclusive) times: aten::linear's total already contains aten::addmm's,
so nested work is counted twice or more."""

from solutions.a10_profile_idle import *  # noqa: F403

KILLED_BY = ("device_time_from_ops",)


def device_time_ms(ops):
    return float(sum(op["total_ms"] for op in ops))
