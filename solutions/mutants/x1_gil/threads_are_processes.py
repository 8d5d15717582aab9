"""'run_threads' secretly uses a process pool: the work does not run in this process's threads."""

import multiprocessing

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("threads_cpu_use",)


def run_threads(n_workers, tasks):
    with multiprocessing.Pool(n_workers) as pool:
        return pool.map(busy, tasks, chunksize=1)
