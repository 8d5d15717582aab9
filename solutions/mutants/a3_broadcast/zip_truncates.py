"""Zips the two shapes from the right (``zip(reversed(a), reversed(b))``) and forgets that zip stops
at the shorter one: the longer shape's leading dims are dropped, (8, 1, 64) + (16, 64) -> (16, 64).

The silent truncation PEP 618 was written against (https://www.python.org/dev/peps/pep-0618/:
"the default behavior of zip means that faulty refactoring or logic errors could easily result
in silently losing data").
"""

from solutions.mutants.a3_broadcast import _rules

KILLED_BY = ("different_lengths", "matches_numpy")
MISCONCEPTION = "zip the shapes from the right and lose the longer shape's leading dims (zip stops at the shorter)"


def _zipped_from_the_right(a, b):
    n = min(len(a), len(b))
    return a[len(a) - n :], b[len(b) - n :]


def broadcast_shape(a, b):
    return _rules.broadcast_shape(a, b, align=_zipped_from_the_right)
