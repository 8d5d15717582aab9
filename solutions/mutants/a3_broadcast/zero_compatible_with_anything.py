"""Treats a 0-length dim as compatible with any size and keeps the larger one: (2, 1) + (0, 1)
gives (2, 1) where numpy refuses (0 is neither 1 nor 2).

The rule xtensor-stack/xtensor issue #1562 reports ("What should the common dimensions of the two
shapes (2, 1) and (0, 1) be? xtensor would say (2, 1) but numpy would actually say these can't be
broadcast together").
"""

KILLED_BY = ("raises_on_incompatible",)
MISCONCEPTION = "treat a 0-length dim as compatible with any size (0 vs 3 must raise: only 1 stretches)"


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y) and 0 not in (x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast")
        out.append(y if x == 1 else x if y == 1 else max(x, y))
    return tuple(out)
