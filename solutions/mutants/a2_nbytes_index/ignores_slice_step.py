"""Ignores a slice's step: x[::2] of length 8 is counted as 8 elements, not 4."""

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.mutants.a2_nbytes_index import _shape_rules

KILLED_BY = ("slice_shape", "full_index_expressions")


def _rule(s, n):
    start, stop, _ = s.indices(n)
    return (len(range(start, stop)),)


def index_shape(shape, index):
    return _shape_rules.index_shape(shape, index, slice_rule=_rule)
