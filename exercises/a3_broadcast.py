"""A3 — broadcasting two shapes.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 3)::

    (8, 1, 64) + (16, 64) 能广播吗？结果什么形状？

    Can (8, 1, 64) + (16, 64) be broadcast? What shape is the result?

Answer it for any two shapes, by the rules: do not call NumPy or torch to do it.

What the grader measures: your shapes against ``np.broadcast_shapes`` on drawn pairs (shapes of
different lengths among them), and that you refuse the pairs NumPy refuses.

Study: 第二篇 · 必记 / part 2, must-remember.
"""


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``x + y`` for arrays ``x``, ``y`` of shapes ``a`` and ``b``.

    Args:
        a, b: shapes, tuples of non-negative ints of any length (``()`` is a scalar).

    Returns:
        The shape of the result, a tuple of ints.

    Raises:
        ValueError: the two shapes cannot be broadcast together.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q3.
    """
    raise NotImplementedError("A3: broadcast_shape")
