"""Computes a slice's length as stop - start after adding n to negatives, without clamping to the
dimension: x[-10:] of a length-4 dim gives 10 instead of 4, x[2:100] gives 98 instead of 2."""

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.mutants.a2_nbytes_index import _shape_rules

KILLED_BY = ("full_index_expressions",)


def _rule(s, n):
    start = 0 if s.start is None else s.start + n if s.start < 0 else s.start
    stop = n if s.stop is None else s.stop + n if s.stop < 0 else s.stop
    step = s.step or 1
    return (max(0, len(range(start, stop, step))),)


def index_shape(shape, index):
    return _shape_rules.index_shape(shape, index, slice_rule=_rule)
