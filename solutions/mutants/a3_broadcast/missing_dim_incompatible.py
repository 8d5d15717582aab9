"""Treats a missing dimension as incompatible: only equal-rank shapes broadcast."""

KILLED_BY = ("different_lengths",)


def broadcast_shape(a, b):
    if len(a) != len(b):
        raise ValueError("ranks differ")
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError("incompatible")
        out.append(y if x == 1 else x)
    return tuple(out)
