"""run_parallel takes n_workers and starts ``Pool(cpu_count())`` anyway: as many workers as the
box has cores, whatever was asked. On a 2-core box asked for 2 workers it looks right; asked for 1
(or on a 16-core box asked for 2) it starts more processes than it was given cores.

PatWalters/rd_filters issue #6 ("I use --np 40 option. However, rd_filter use all cpu cores ...
"num_cores" did not used after. Just repeated mp.cpu_count(). p = Pool(mp.cpu_count())").
The stub: "run so that the work keeps ``n_workers`` CPU cores busy at once".
"""

import multiprocessing

from solutions.x1_gil import *  # noqa: F401,F403
from solutions.x1_gil import busy

KILLED_BY = ("parallel_cpu_use",)
MISCONCEPTION = "start the pool with n_workers processes: Pool() (or Pool(cpu_count())) ignores what was asked"


def run_parallel(n_workers, tasks):
    with multiprocessing.Pool(multiprocessing.cpu_count()) as pool:
        return pool.map(busy, tasks, chunksize=1)
