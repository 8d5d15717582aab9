"""Aligns shapes from the left: pads the shorter shape with 1s at the end."""

KILLED_BY = ("different_lengths", "matches_numpy")

# Self-contained, not built on _rules: tests/test_batch.py hands this file in as a learner's answer,
# and a learner's folder cannot import solutions/.


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = tuple(a) + (1,) * (n - len(a))
    b = tuple(b) + (1,) * (n - len(b))
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError("incompatible")
        out.append(y if x == 1 else x)
    return tuple(out)
