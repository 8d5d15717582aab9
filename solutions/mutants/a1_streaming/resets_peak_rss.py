"""Loads every record into a list, then resets the kernel's peak-resident counter (writes 5 to
/proc/self/clear_refs) so VmHWM no longer shows the list. The peak address space (VmPeak) cannot
be reset, and an address-space limit stops it anyway."""

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.mutants.a1_streaming import _in_memory

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")


def pipeline(path, min_chars):
    out = _in_memory.list_pipeline(path, min_chars)  # the list is freed when it returns
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    return out
