"""Takes the larger of each pair of dims and never refuses: (4, 3) + (4,) "works"."""

KILLED_BY = ("raises_on_incompatible",)

# Self-contained, not built on _rules: tests/test_classroom.py and tests/test_gradescope.py hand
# this file in as a learner's answer, and a learner's folder cannot import solutions/.


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return tuple(max(x, y) for x, y in zip(a, b))
