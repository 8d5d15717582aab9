"""Blames the GIL for the processes too, as if all the workers shared one interpreter lock. Part 1:
「GIL 让 CPU 密集的线程不并行，进程池才有用……且进程间不共享内存」: each process has its own
interpreter and its own GIL; the gap to 8x is 「进程启动与 pickle」 (part 7's misconception table:
「CPU 密集的预处理开线程能加速」, the thread / process confusion)."""

from solutions.c7_jsonl_plan import *  # noqa: F403

KILLED_BY = ("why_not_linear",)
MISCONCEPTION = "blame the GIL for the processes too: each worker process has its own interpreter and GIL"


def why_not_linear():
    return sorted({"startup", "serialization", "one_lock"})
