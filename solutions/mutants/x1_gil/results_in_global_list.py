"""Lets each worker process append its result to a module-level list and returns that list: each
process appends to its own copy of the module's memory, so the parent's list stays empty.

What "Why is a local list showing empty after starting multiprocessing"
(https://www.alexacabs.in/why-is-a-local-list-showing-empty-after-starting-multiprocessing.html)
and Stack Overflow question 65195695, "multiprocessing issue function calling" (mirrored at
https://kaweah.freedombox.rocks/kiwix/stackoverflow.com_en_all_2023-11/questions/65195695/multiprocessing-issue-function-calling:
"the list a operated by the one method running in the child process is the unique memory space of
the child process itself, and will not change the list a owned by the parent process") answer.
"""

import multiprocessing

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)
MISCONCEPTION = (
    "collect results in a global list from worker processes: each has its own memory, return them through the pool"
)

RESULTS = []


def _work(n):
    RESULTS.append(busy(n))


def run_parallel(n_workers, tasks):
    procs = [multiprocessing.Process(target=_work, args=(n,)) for n in tasks]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return list(RESULTS)
