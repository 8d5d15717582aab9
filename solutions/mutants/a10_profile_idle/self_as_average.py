"""Reads ``self_ms`` as a per-call average ("CPU time avg") and multiplies it by ``count``: every op
called more than once is counted count times over.

The column confusion of pytorch/pytorch issue #33855 ("Unclear output for Pytorch Profiler ... the
meaning and the difference of Self CPU total and CPU total") that pytorch/pytorch PR #48301 documents
("CPU time avg: The total CPU time spent in a block, divided by the number of times the block is
called"); the rows hold totals.
"""

from solutions.a10_profile_idle import *  # noqa: F401,F403

KILLED_BY = ("device_time_from_ops",)
MISCONCEPTION = "multiply self_ms by count as if it were a per-call average: the rows hold totals"


def device_time_ms(ops):
    return float(sum(op["self_ms"] * op["count"] for op in ops))
