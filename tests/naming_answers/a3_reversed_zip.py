"""Walks both shapes from the right with zip(reversed(a), reversed(b)) and so stops at the shorter one
(the leading dims of the longer shape are lost); numpy/numpy#10165-like "works on equal ranks only"."""

EXERCISE, CAUGHT_BY, NAMES = "A3", ("different_lengths",), "drops the longer shape's extra leading dims"


def broadcast_shape(a, b):
    out = []
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and 1 not in (x, y):
            raise ValueError("incompatible")
        out.append(y if x == 1 else x)
    return tuple(reversed(out))
