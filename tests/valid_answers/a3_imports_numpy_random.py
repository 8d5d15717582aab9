"""A valid A3 answer that imports numpy (numpy.random too) for a self-test run only as a script: importing a
library is not calling it. The watch once replaced the type numpy.broadcast by a function, and importing
numpy.random failed ("numpy.broadcast is not a type object")."""

import numpy as np
import numpy.random
from numpy.random import default_rng


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b, strict=True):
        if x != y and 1 not in (x, y):
            raise ValueError(f"cannot broadcast {a} and {b}")
        out.append(y if x == 1 else x)
    return tuple(out)


if __name__ == "__main__":  # a self-test against numpy, never run by the grader
    rng = default_rng(0)
    n = 100
    for _ in range(n):
        a = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 4)))
        b = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(0, 4)))
        try:
            want = np.broadcast_shapes(a, b)
        except ValueError:
            want = None
        print(a, b, want)
