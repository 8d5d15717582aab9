"""Asserts equal ranks (a missing leading dim is not taken as 1): the course's (8, 1, 64) + (16, 64) refused."""

EXERCISE, CAUGHT_BY, NAMES = "A3", ("different_lengths",), "refuses shapes of different lengths"


def broadcast_shape(a, b):
    if len(a) != len(b):
        raise ValueError("ranks differ")
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError("incompatible")
        out.append(y if x == 1 else x)
    return tuple(out)
