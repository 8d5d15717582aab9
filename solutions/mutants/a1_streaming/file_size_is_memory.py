"""Assumes a list of records takes as much memory as the file (factor 1): 8 GB "fits" in 32 GB."""

from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("fits_in_memory",)


def fits_in_memory(file_gb, ram_gb):
    return file_gb <= ram_gb
