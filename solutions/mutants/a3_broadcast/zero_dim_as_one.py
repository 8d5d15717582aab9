"""Takes the larger dim whenever one is 1, so (0,) + (1,) gives (1,) instead of (0,).

The bug helmholtz-analytics/heat issue #891 reports (``ht.stride_tricks.broadcast_shape((0,5), (1,5))``
gives ``(1, 5)``, ``np.broadcast_shapes`` ``(0, 5)``) and robertknight/rten PR #1369 fixed ("The
broadcast size was computed incorrectly when one of the sizes was 0 ... used max, which is correct
for 1 vs N but not for 1 vs 0, where the result is 0 rather than 1").
"""

from solutions.mutants.a3_broadcast import _rules

KILLED_BY = ("matches_numpy",)
MISCONCEPTION = "take the larger of two dims when one is 1: a 1 against a 0 gives 0"


def broadcast_shape(a, b):
    return _rules.broadcast_shape(a, b, take=max)
