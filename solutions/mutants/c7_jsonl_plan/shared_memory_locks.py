"""Thinks the worker processes contend for memory they share. Part 1: 「进程间不共享内存」: a pool's
workers share nothing; what they cost is 「进程启动与 pickle」."""

from solutions.c7_jsonl_plan import *  # noqa: F403

KILLED_BY = ("why_not_linear",)


def why_not_linear():
    return sorted({"startup", "serialization", "shared_memory"})
