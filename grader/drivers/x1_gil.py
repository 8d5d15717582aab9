"""X1 driver: time the learner's serial, threaded and process-pool runs where they execute.

For each run it reports the wall time, this process's CPU time (all its threads) and the CPU
time of the child processes that finished during the run (``RUSAGE_CHILDREN``): CPU time says
where the work ran, and CPU / wall says how many cores it used at once.
"""

from __future__ import annotations

import resource
import time


def _measure(fn) -> dict:
    kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    c0, t0 = time.process_time(), time.perf_counter()
    result = fn()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
    return {"result": result, "wall_s": wall, "cpu_self_s": cpu, "cpu_children_s": children}


def run(learner_module, *, tasks: list, n_workers: int, repeats: int = 2) -> dict:
    runs = {"threads": [], "processes": [], "serial": []}
    for _ in range(repeats):  # interleaved, so a burst of load hits all three alike
        runs["threads"].append(_measure(lambda: learner_module.run_threads(n_workers, list(tasks))))
        runs["processes"].append(_measure(lambda: learner_module.run_processes(n_workers, list(tasks))))
        runs["serial"].append(_measure(lambda: [learner_module.busy(n) for n in tasks]))
    return runs
