"""Doubles the file size for the list ("strings plus a little overhead") instead of ~5x: a
10 GB file would "fit" in 24 GB."""

from solutions.a1_streaming import *  # noqa: F401,F403

KILLED_BY = ("fits_in_memory",)


def fits_in_memory(file_gb, ram_gb):
    return 2 * file_gb <= ram_gb
