"""Touches 300 MB at import and frees it, so the process's peaks are high before the pipeline
runs; then loads every record into a list, hoping "peak after - peak before" stays 0. The
grader compares with an idle worker it starts itself, and the address-space limit stops it."""

from solutions.a1_streaming import *  # noqa: F401,F403
from solutions.mutants.a1_streaming import _in_memory

KILLED_BY = ("peak_vs_file_size", "runs_under_rlimit")

_ballast = bytearray(300 << 20)  # zero-filled: really resident
del _ballast


def pipeline(path, min_chars):
    return _in_memory.list_pipeline(path, min_chars)
