"""Counts a 4-bit base as one byte per parameter (the 8-bit number) instead of half a byte."""

from solutions.c1_70b_plan import *  # noqa: F403
from solutions.mutants.c1_70b_plan import _frozen_base

KILLED_BY = ("qlora_state",)


def state_bytes(n_base, n_adapter, method):
    return _frozen_base.state_bytes(n_base, n_adapter, method, wrong_for="qlora", base_bytes_per_param=1)
