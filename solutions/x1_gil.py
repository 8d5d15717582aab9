"""X1 — the GIL: threads ~1x, processes speed up (part 7 §五.D; part 1)."""

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

from grader.given.cpu_work import busy


def run_threads(n_workers, tasks):
    with ThreadPoolExecutor(n_workers) as pool:
        return list(pool.map(busy, tasks))


def run_parallel(n_workers, tasks):
    with multiprocessing.Pool(n_workers) as pool:
        return pool.map(busy, tasks, chunksize=1)
