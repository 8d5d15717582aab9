"""Drops the dimension when a slice selects a single element: x[:, -1:] gives (16, 1024)."""

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.mutants.a2_nbytes_index import _shape_rules

KILLED_BY = ("slice_shape", "full_index_expressions")


def _rule(s, n):
    length = _shape_rules.slice_len(s, n)
    return () if length == 1 else (length,)


def index_shape(shape, index):
    return _shape_rules.index_shape(shape, index, slice_rule=_rule)
