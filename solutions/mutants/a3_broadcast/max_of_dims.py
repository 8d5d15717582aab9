"""Takes the larger of each pair of dims and never refuses: (4, 3) + (4,) "works"."""

KILLED_BY = ("raises_on_incompatible",)


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    return tuple(max(x, y) for x, y in zip(a, b))
