"""Takes max(x, y) per dim after aligning right, never raising: "the bigger size wins" (1 vs 0 gives 1)."""

EXERCISE, CAUGHT_BY, NAMES = "A3", ("matches_numpy",), "takes the larger of two sizes"


def broadcast_shape(a, b):
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    return tuple(max(x, y) for x, y in zip(a, b))
