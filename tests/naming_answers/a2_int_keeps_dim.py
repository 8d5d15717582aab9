"""Treats x[:, -1] like x[:, -1:] (an integer keeps a dim of 1): x[i] read as x[i:i+1].

Like every answer here it is graded put over the reference (tests/test_naming.py), whose
index_shape it wraps."""

from solutions.a2_nbytes_index import *  # noqa: F401,F403

_right = index_shape  # noqa: F405 - the reference's, defined above it when graded

EXERCISE, CAUGHT_BY, NAMES = "A2", ("integer_index_shape",), "keeps an integer index's dimension"


def index_shape(shape, index):
    items = index if isinstance(index, tuple) else (index,)
    return _right(shape, tuple(slice(i, i + 1 if i != -1 else None) if type(i) is int else i for i in items))
