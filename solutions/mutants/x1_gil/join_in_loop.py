"""Starts one ``multiprocessing.Process`` per task and joins it in the same loop, before starting the
next: each join waits for that worker to finish, so the processes run one after another and there
is no speed-up.

The loop dimagi/commcare-hq PR #25318 fixed ("Move join outside the loop ... Otherwise, it empties the
pool each time an element is added (so it just executes sequentially)"), as asked about threads in
xros/jsonpyes issue #33 ("you call thread.join after calling thread.start() and inside the same
loop ... the idiomatic way is to call thread.join in another loop").
"""

import multiprocessing

from solutions.x1_gil import *  # noqa: F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)
MISCONCEPTION = "join each worker process right after starting it: start them all first, then join them all"


def _work(n, conn):
    conn.send(busy(n))
    conn.close()


def run_parallel(n_workers, tasks):
    results = []
    for n in tasks:
        receive, send = multiprocessing.Pipe(duplex=False)
        p = multiprocessing.Process(target=_work, args=(n, send))
        p.start()
        results.append(receive.recv())
        p.join()  # this worker is done before the next one starts
    return results
