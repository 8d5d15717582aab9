"""X1 — more threads for CPU-bound preprocessing: the experiment.

The course lists it among its misconceptions and asks why it is wrong (第七篇 · 四、常见误区,
columns 误区 · 为什么错)::

    预处理慢就开多线程

    Preprocessing is slow, so use more threads.

Write the experiment; the explanation is what its measurements show. The preprocessing step is
given: ``busy(n)`` (``grader/given/cpu_work.py``), CPU-bound and written in plain Python.

What the grader measures: the results, and where and how fast the work runs: CPU time, read
from the kernel's accounting outside your process, against the wall time, for the same tasks
run one after another, in threads and your other way.

Study: 第一篇 · 必记 / part 1, must-remember; 第一篇 · 常见误解 / part 1, misconceptions.
"""

from grader.given.cpu_work import busy  # noqa: F401  (the grader calls it too, for the serial run)


def run_threads(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``, computed by ``n_workers`` threads of this process; results
    in task order.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("X1: run_threads")


def run_parallel(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``, run so that the work keeps ``n_workers`` CPU cores busy at
    once; results in task order; everything it starts has finished before it returns.

    Source: 第一篇 · 必记 / part 1, must-remember; 第一篇 · 常见误解 / part 1, misconceptions.
    """
    raise NotImplementedError("X1: run_parallel")
