"""Treats a 0-length dim as compatible with any size and keeps the larger one: (2, 1) + (0, 1)
gives (2, 1) where numpy refuses (0 is neither 1 nor 2).

The rule xtensor-stack/xtensor issue #1562 reports ("What should the common dimensions of the two
shapes (2, 1) and (0, 1) be? xtensor would say (2, 1) but numpy would actually say these can't be
broadcast together").
"""

from solutions.mutants.a3_broadcast import _rules

KILLED_BY = ("raises_on_incompatible",)
MISCONCEPTION = "treat a 0-length dim as compatible with any size (0 vs 3 must raise: only 1 stretches)"


def broadcast_shape(a, b):
    return _rules.broadcast_shape(
        a,
        b,
        agree=lambda x, y: x == y or 1 in (x, y) or 0 in (x, y),
        take=lambda x, y: y if x == 1 else x if y == 1 else max(x, y),
    )
