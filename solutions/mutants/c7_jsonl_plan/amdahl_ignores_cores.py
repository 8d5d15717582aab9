"""Uses the worker count in Amdahl's law whatever the core count: 16 processes on 8 cores are
promised the speed-up of 16.

What hudl/statsbombpy PR #44's reviewers checked ("If you specify more cores than your system has
... some of the worker processes will have to share a core ... decreased performance") and
fonttools/fontbakery issue #3650 measured ("no time difference between 8 and 16 threads"): the
parallel part runs on min(workers, cores).
"""

from solutions.c7_jsonl_plan import *  # noqa: F401,F403

KILLED_BY = ("speedup_bound",)
MISCONCEPTION = "put the worker count into Amdahl's law even beyond the cores: the parallel part runs on min(workers, cores)"


def speedup_bound(serial_fraction, n_workers, n_cores):
    return 1 / (serial_fraction + (1 - serial_fraction) / n_workers)
