"""Loads every record into a list, then fakes the memory measurement: it calls
tracemalloc.reset_peak() (and stops tracing) so an in-process tracemalloc peak looks tiny. The
list still peaks at ~5x the file in the process, which the grader reads from outside."""

import tracemalloc

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.mutants.a1_streaming import _in_memory

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")


def _stop_tracing(records):
    if tracemalloc.is_tracing():
        tracemalloc.reset_peak()
        tracemalloc.stop()


def pipeline(path, min_chars):
    return _in_memory.list_pipeline(path, min_chars, after_load=_stop_tracing)
