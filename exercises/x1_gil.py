"""X1 — CPU 密集的预处理开更多线程：实验。

课程把它列为误区之一，并问它为什么错（第七篇 · 四、常见误区，误区 · 为什么错 两列）::

    预处理慢就开多线程

写出这个实验；解释就是它的测量显示的东西。预处理步骤是给定的：``busy(n)``（``grader/given/cpu_work.py``），
CPU 密集，用纯 Python 写成。

评分器测什么：结果，以及工作在哪里、以多快的速度运行：CPU 时间（从进程外读内核的记账）与墙钟时间相比，对同样
的任务依次运行、在线程里运行、以及用你的另一种方式运行。

学习：第一篇 · 必记；第一篇 · 常见误解。

English
-------

X1 — more threads for CPU-bound preprocessing: the experiment.

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

from grader.given.cpu_work import busy  # noqa: F401  评分器也调用它，用于串行那次运行 / the grader calls it too, for the serial run


def run_threads(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``，由本进程的 ``n_workers`` 个线程计算；结果按任务顺序。

    出处：第一篇 · 必记。

    English
    -------

    ``[busy(n) for n in tasks]``, computed by ``n_workers`` threads of this process; results
    in task order.

    Source: 第一篇 · 必记 / part 1, must-remember.
    """
    raise NotImplementedError("X1: run_threads")


def run_parallel(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``，运行方式要让工作同时占满 ``n_workers`` 个 CPU 核；结果按任务顺序；它启动的
    一切都在它返回之前结束。

    出处：第一篇 · 必记；第一篇 · 常见误解。

    English
    -------

    ``[busy(n) for n in tasks]``, run so that the work keeps ``n_workers`` CPU cores busy at
    once; results in task order; everything it starts has finished before it returns.

    Source: 第一篇 · 必记 / part 1, must-remember; 第一篇 · 常见误解 / part 1, misconceptions.
    """
    raise NotImplementedError("X1: run_parallel")
