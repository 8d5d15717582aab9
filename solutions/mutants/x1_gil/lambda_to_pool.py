"""Hands the pool a lambda, ``pool.map(lambda n: busy(n), tasks)``: the tasks are pickled to reach
the worker processes, and a lambda cannot be pickled, so run_parallel raises instead of returning.

The error asuiu/pyxtension issue #15 shows for its multiprocessing ``mpmap`` on a lambda
("_pickle.PicklingError: Can't pickle <function <lambda> ..."), and uber/bayesmark PR #8 ("Lambda
functions can't be pickled. So if you try to apply multiprocessing to a lambda function, it will
fail as Functions are pickled by name, not by code").
"""

import multiprocessing

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)
MISCONCEPTION = "give the process pool a lambda: what it runs is pickled by name, so use a module-level function"


def run_parallel(n_workers, tasks):
    with multiprocessing.Pool(n_workers) as pool:
        return pool.map(lambda n: busy(n), tasks, chunksize=1)
