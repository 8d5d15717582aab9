"""Zips the two shapes from the right (``zip(reversed(a), reversed(b))``) and forgets that zip stops
at the shorter one: the longer shape's leading dims are dropped, (8, 1, 64) + (16, 64) -> (16, 64).

The silent truncation PEP 618 was written against (https://www.python.org/dev/peps/pep-0618/:
"the default behavior of zip means that faulty refactoring or logic errors could easily result
in silently losing data").
"""

KILLED_BY = ("different_lengths", "matches_numpy")
MISCONCEPTION = "zip the shapes from the right and lose the longer shape's leading dims (zip stops at the shorter)"


def broadcast_shape(a, b):
    out = []
    for x, y in zip(reversed(tuple(a)), reversed(tuple(b))):
        if x != y and 1 not in (x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast")
        out.append(y if x == 1 else x)
    return tuple(reversed(out))
