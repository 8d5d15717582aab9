"""Submits each task with ``pool.apply(busy, (n,))`` in a loop: ``apply`` blocks until that one
result is back, so the worker processes run the tasks one after another — no speed-up.

The blocking pitfall the multiprocessing docs warn of ("apply blocks until the result is ready";
apply_async/map are for parallel work), as asked in "multiprocessing.Pool: When to use apply,
apply_async or map?" (https://codehunter.cc/a/python/multiprocessing-pool-when-to-use-apply-apply-async-or-map)
and https://runebook.dev/en/articles/python/library/multiprocessing/multiprocessing.pool.Pool.apply
("If you call apply() multiple times in a loop ... the tasks will execute serially").
"""

import multiprocessing

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)
MISCONCEPTION = "call pool.apply in a loop: apply blocks until each result is back, so the tasks run one at a time"


def run_parallel(n_workers, tasks):
    with multiprocessing.Pool(n_workers) as pool:
        return [pool.apply(busy, (n,)) for n in tasks]
