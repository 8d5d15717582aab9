"""'busy' computed by a shortcut (the period of i * i % 7): right values, but no CPU-bound work, so
the experiment measures nothing — neither the GIL nor a speed-up can show."""

import solutions.x1_gil as reference
from solutions.x1_gil import *  # noqa: F403

KILLED_BY = ("threads_cpu_use", "parallel_cpu_use")

PERIOD = [i * i % 7 for i in range(7)]


def busy(n):
    return n // 7 * sum(PERIOD) + sum(PERIOD[: n % 7])


reference.busy = busy  # the reference's run_threads / run_parallel look it up there
