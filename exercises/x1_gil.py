"""X1 — threads and processes for CPU-bound Python: the experiment.

The course lists it among its misconceptions and asks why it is wrong (第七篇 · 四、常见误区,
columns 误区 · 为什么错)::

    预处理慢就开多线程

    Preprocessing is slow, so use more threads.

Write the experiment; the explanation is what its measurements show.

What the grader measures: the results, and where and how fast the work runs: the CPU time of
your process and of its children, read from /proc outside it, against the wall time, for the
same tasks run serially, in threads and in processes.

Study: 第一篇 · 必记 / part 1, must-remember; 第一篇 · 常见误解 / part 1, misconceptions.
"""


def busy(n: int) -> int:
    """CPU-bound pure-Python work: ``sum(i * i % 7 for i in range(n))``, computed in a plain
    Python loop (no NumPy, no C helpers, no closed form). Returns the int.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("X1: busy")


def run_threads(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``, computed by ``n_workers`` threads of this process; results
    in task order.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("X1: run_threads")


def run_processes(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``, computed by ``n_workers`` worker processes; results in task
    order; every worker process has finished (joined) before the function returns.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("X1: run_processes")
