"""Writes the 1 instead of the other size when one of two aligned dims is 1: (8, 1, 64) + (16, 64)
gives (8, 1, 64), a broadcast dim collapses to 1; only equal dims (and the longer shape's extra
leading dims) come out right.

The swapped assignment google/XNNPACK PR #10650 fixed in ``xnn_shape_binary_broadcast`` ("computes
a wrong output dimension whenever exactly one operand's dimension is 1: the broadcast dimension
collapses to 1 instead of taking the partner's extent").
"""

KILLED_BY = ("matches_numpy", "different_lengths")
MISCONCEPTION = "keep the 1 where one of two aligned dims is 1: the result takes the other, stretched size"


def broadcast_shape(a, b):
    a, b = tuple(a), tuple(b)
    out = []
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and 1 not in (x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast")
        out.append(x if x == 1 else y)  # the swapped branches: 1 vs N writes 1, N vs 1 writes 1
    longer = a if len(a) > len(b) else b
    return longer[: len(longer) - len(out)] + tuple(reversed(out))
