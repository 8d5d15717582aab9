"""A3 — broadcast two shapes (part 7, §五.A question 3; part 2, broadcasting).

Can (8, 1, 64) + (16, 64) broadcast, and to what shape? Write the rule, don't call NumPy.
"""


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``x + y`` for arrays of shapes ``a`` and ``b``, by the broadcasting rules.

    Args:
        a, b: shapes as tuples of non-negative ints, any length (``()`` is a scalar).

    Returns:
        The broadcast shape as a tuple of ints, e.g. ``(8, 1, 64), (16, 64) -> (8, 16, 64)``.

    Raises:
        ValueError: the shapes cannot be broadcast (e.g. ``(4, 3)`` and ``(4,)``).

    Source: part 2, must-remember "broadcasting: align from the right; each dim equal or one
    of them 1; the 1 is stretched".
    """
    raise NotImplementedError("A3: broadcast_shape")
