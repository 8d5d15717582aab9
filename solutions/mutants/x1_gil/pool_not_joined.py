"""Creates ``multiprocessing.Pool(n)``, maps and returns, never closing or joining it: the workers
are left running (unreaped), so their work is never accounted as finished child processes.

stan-dev/pystan2 PR #56 ("The pool ... was not being cleaned up after use, which could potentially
leave lots of abandoned Python processes"); thomasbkahn/step-detect PR #2 ("worker processes in the
pool are not closed after tasks are completed"); ajeldorado/falco-python PR #19 ("Added pool.close()
and pool.join()").
"""

import multiprocessing

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)
MISCONCEPTION = "return without closing and joining the pool: its worker processes are left running"

_pools = []  # kept alive, as a module-level or cached pool would be


def run_parallel(n_workers, tasks):
    pool = multiprocessing.Pool(n_workers)
    _pools.append(pool)
    return pool.map(busy, tasks, chunksize=1)
