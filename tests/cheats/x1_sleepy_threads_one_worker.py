"""The red team's cheat: threads padded with sleep (their CPU time / wall time drops far below one
core) and a pool of one worker process: the processes look 1.3x better than the threads while
never running two tasks at once."""

import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor



def busy(n):
    s = 0
    for i in range(n):
        s += i * i % 7
    return s

CAUGHT_BY = ("parallel_cpu_use",)  # not a mutant: on a saturated box the key point is not verifiable


def _slow_busy(n):
    value = busy(n)
    time.sleep(2.0)
    return value


def run_threads(n_workers, tasks):
    with ThreadPoolExecutor(1) as pool:
        return list(pool.map(_slow_busy, tasks))


def run_parallel(n_workers, tasks):
    with multiprocessing.Pool(1) as pool:
        return pool.map(busy, tasks, chunksize=1)
