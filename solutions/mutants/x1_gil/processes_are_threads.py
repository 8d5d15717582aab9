"""'Processes or threads, same thing': run_parallel uses a thread pool (multiprocessing.dummy)."""

from multiprocessing.dummy import Pool

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)


def run_parallel(n_workers, tasks):
    with Pool(n_workers) as pool:
        return pool.map(busy, tasks, chunksize=1)
