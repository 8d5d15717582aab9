"""'8 processes, 8x': ignores the serial part of the work."""

from solutions.c7_jsonl_plan import *  # noqa: F403

KILLED_BY = ("speedup_bound",)


def speedup_bound(serial_fraction, n_workers, n_cores):
    return float(min(n_workers, n_cores))
