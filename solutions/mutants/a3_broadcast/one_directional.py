"""Implements "can a be broadcast TO b" (np.broadcast_to's one-way rule) instead of the mutual rule:
only a's 1s stretch, so (3, 1) + (1, 4) raises instead of giving (3, 4).

The one-way reading numpy/numpy issue #19425 ran into ("You can't broadcast an array with shape
(1, 0) to the shape (2, 1) ... when you compute np.ones((2, 1))*x, you don't have the constraint
that the result must be the second shape").
"""

from solutions.mutants.a3_broadcast import _rules

KILLED_BY = ("matches_numpy",)
MISCONCEPTION = "apply broadcast_to's one-way rule (only the first shape's 1s stretch) instead of the mutual one"


def broadcast_shape(a, b):
    return _rules.broadcast_shape(a, b, agree=lambda x, y: x == y or x == 1, take=lambda x, y: y)
