"""Budgets the list at the file's size plus 50%: part 7's misconception-table row
「语料多大就要多大内存」 (its answer: 「读成 list 才是 5 倍文件大小」)."""

from solutions.a1_streaming import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A1", ("fits_in_memory",), "counts the list's memory near the file's size"


def fits_in_memory(file_gb, ram_gb):
    return 1.5 * file_gb <= ram_gb
