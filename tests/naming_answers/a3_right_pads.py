"""Pads the shorter shape with 1s on the right (itertools.zip_longest): (3,) with (3, 1) gives (3, 1).
Part 2 / part 7 §四: "广播太宽容：(3,) + (3, 1) 成 (3, 3)"."""

from itertools import zip_longest

EXERCISE, CAUGHT_BY, NAMES = "A3", ("different_lengths",), "aligns the shapes from the left"


def broadcast_shape(a, b):
    out = []
    for x, y in zip_longest(a, b, fillvalue=1):
        if x != y and 1 not in (x, y):
            raise ValueError("incompatible")
        out.append(y if x == 1 else x)
    return tuple(out)
