"""Sees only the start-up cost of the workers and forgets that every item and every result is
pickled across the process boundary. Part 1: 「差在进程启动与 pickle，chunksize 是最重要的旋钮」: chunksize
matters precisely because of the pickling."""

from solutions.c7_jsonl_plan import *  # noqa: F403

KILLED_BY = ("why_not_linear",)
MISCONCEPTION = "forget the pickling of each item and result between processes (what chunksize amortizes)"


def why_not_linear():
    return sorted({"startup"})
