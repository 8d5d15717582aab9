"""Broadcasts only missing leading dims and requires every aligned pair to be equal: a size-1 dim
never stretches, so (8, 1, 64) + (16, 64) is refused.

The gap tensorflow/mesh issue #22 reports ("_infer_binary_broadcast_shape should handle
dimensions of size 1 ... currently broadcasting semantics aren't the same as regular tensorflow")
and finch-tensor/Finch.jl issue #529 ("broadcasting of singleton dimensions fails ...
DimensionMismatch: mismatched dimension limits (10 != 1)").
"""

KILLED_BY = ("matches_numpy", "different_lengths")
MISCONCEPTION = "let only missing leading dims broadcast: an aligned dim of size 1 stretches to the other size too"


def broadcast_shape(a, b):
    a, b = tuple(a), tuple(b)
    k = min(len(a), len(b))
    for x, y in zip(a[len(a) - k :], b[len(b) - k :]):  # the aligned dims must match exactly
        if x != y:
            raise ValueError(f"shapes {a} and {b} do not broadcast: dim {x} vs {y}")
    return a if len(a) >= len(b) else b  # the longer shape's leading dims are taken as they are
