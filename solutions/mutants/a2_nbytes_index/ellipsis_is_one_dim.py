"""Treats ... as a single ':' (one dimension) instead of all the dims the other items leave."""

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.mutants.a2_nbytes_index import _shape_rules

KILLED_BY = ("full_index_expressions",)


def index_shape(shape, index):
    return _shape_rules.index_shape(shape, index, ellipsis_rule=lambda ndim, consumed: min(1, ndim - consumed))
