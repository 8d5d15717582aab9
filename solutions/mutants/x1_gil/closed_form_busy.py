"""'busy' computed by a shortcut (the period of i * i % 7): right values, but no CPU-bound work, so
the experiment measures nothing — neither the GIL nor a speed-up can show."""

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

KILLED_BY = ("threads_no_speedup", "processes_speed_up")

PERIOD = [i * i % 7 for i in range(7)]


def busy(n):
    return n // 7 * sum(PERIOD) + sum(PERIOD[: n % 7])


def run_threads(n_workers, tasks):
    with ThreadPoolExecutor(n_workers) as pool:
        return list(pool.map(busy, tasks))


def run_processes(n_workers, tasks):
    with multiprocessing.Pool(n_workers) as pool:
        return pool.map(busy, tasks, chunksize=1)
