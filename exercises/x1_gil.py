"""X1 — threads do not speed up CPU-bound Python; processes do (part 7, §五.D counter-intuitive
conclusions; part 1, the GIL).

Misconception (part 7 §四): "preprocessing is slow, so use more threads". The GIL lets one
thread at a time run Python bytecode: CPU-bound work in 8 threads runs at 1.0x, in 8 processes
at 3.1x (part 1). Write the experiment; the grader measures where and how fast it runs.
"""


def busy(n: int) -> int:
    """Pure-Python CPU-bound work: ``sum(i * i % 7 for i in range(n))`` computed in a plain loop
    (no NumPy, nothing that releases the GIL). Returns the int. Source: part 1.
    """
    raise NotImplementedError("X1: busy")


def run_threads(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``, computed by ``n_workers`` threads of this process
    (``concurrent.futures.ThreadPoolExecutor``), results in task order. Source: part 1.
    """
    raise NotImplementedError("X1: run_threads")


def run_processes(n_workers: int, tasks: list[int]) -> list[int]:
    """``[busy(n) for n in tasks]``, computed by ``n_workers`` worker processes
    (``multiprocessing.Pool``; ``busy`` is module-level so it pickles), results in task order;
    the pool is closed and joined before returning. Source: part 1, "use a process pool".
    """
    raise NotImplementedError("X1: run_processes")
