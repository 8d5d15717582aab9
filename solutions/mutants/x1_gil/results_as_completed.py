"""Collects the thread pool's results with ``as_completed`` (and the process pool's with
``imap_unordered``): results come back in the order the tasks FINISH, not in task order.

The ordering the codehunter answer on apply_async shows ("the order of the results may not
correspond to the order in which the pool.apply_async calls were made",
https://codehunter.cc/a/python/multiprocessing-pool-when-to-use-apply-apply-async-or-map), and
https://blog.shenwei.me/python-multiprocessing-pool-difference-between-map-apply-map_async-apply_async/
(only map/map_async return ordered results).
"""

import multiprocessing
from concurrent.futures import ThreadPoolExecutor, as_completed

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("threads_cpu_use", "parallel_cpu_use")
MISCONCEPTION = "collect results as they complete: the results must be in task order (pool.map / executor.map)"


def run_threads(n_workers, tasks):
    with ThreadPoolExecutor(n_workers) as pool:
        return [f.result() for f in as_completed([pool.submit(busy, n) for n in tasks])]


def run_parallel(n_workers, tasks):
    with multiprocessing.Pool(n_workers) as pool:
        return list(pool.imap_unordered(busy, tasks, chunksize=1))
