"""Diffs every item, metrics and run_id included, and misses nested differences in no setting."""

from solutions.b2_is_it_real import *  # noqa: F403

KILLED_BY = ("record_diff",)


def diff_records(a, b):
    return sorted(k for k in a if a[k] != b[k])
