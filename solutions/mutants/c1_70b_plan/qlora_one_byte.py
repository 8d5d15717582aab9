"""Counts a 4-bit base as one byte per parameter (the 8-bit number) instead of half a byte."""

from solutions.c1_70b_plan import *  # noqa: F403
from solutions.c1_70b_plan import state_bytes as _state_bytes

KILLED_BY = ("qlora_state",)


def state_bytes(n_base, n_adapter, method):
    if method == "qlora":
        return n_base + 16 * n_adapter
    return _state_bytes(n_base, n_adapter, method)
