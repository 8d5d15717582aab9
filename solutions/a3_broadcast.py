"""A3 — broadcast two shapes (part 7, §五.A question 3; part 2, broadcasting)."""


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``x + y`` for arrays of shapes ``a`` and ``b``; ValueError if incompatible."""
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)  # align from the right: missing leading dims are 1
    b = (1,) * (n - len(b)) + tuple(b)
    out = []
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y and 1 not in (x, y):
            raise ValueError(f"shapes {a} and {b} do not broadcast: dim {i} is {x} vs {y}")
        out.append(y if x == 1 else x)
    return tuple(out)
