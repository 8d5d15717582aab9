"""Takes the larger dim whenever one is 1, so (0,) + (1,) gives (1,) instead of (0,)."""

KILLED_BY = ("matches_numpy",)


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            raise ValueError("incompatible")
        out.append(max(x, y))
    return tuple(out)
