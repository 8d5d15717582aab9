"""Treats an integer index like a length-1 slice: x[:, -1] of (16, 512, 1024) gives (16, 1, 1024)."""

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.mutants.a2_nbytes_index import _shape_rules

KILLED_BY = ("integer_index_shape", "full_index_expressions")


def index_shape(shape, index):
    return _shape_rules.index_shape(shape, index, int_rule=lambda n: (1,))
