"""A3 — 两个形状的广播。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 3 题）::

    (8, 1, 64) + (16, 64) 能广播吗？结果什么形状？

对任意两个形状作答，按规则来：不要调用 NumPy 或 torch 替你做。

评分器测什么：你的形状与 ``np.broadcast_shapes`` 在抽取的形状对（其中有长度不同的）上相比，以及你
拒绝 NumPy 拒绝的那些形状对。

学习：第二篇 · 必记。

English
-------

A3 — broadcasting two shapes.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 3)::

    (8, 1, 64) + (16, 64) 能广播吗？结果什么形状？

    Can (8, 1, 64) + (16, 64) be broadcast? What shape is the result?

Answer it for any two shapes, by the rules: do not call NumPy or torch to do it.

What the grader measures: your shapes against ``np.broadcast_shapes`` on drawn pairs (shapes of
different lengths among them), and that you refuse the pairs NumPy refuses.

Study: 第二篇 · 必记 / part 2, must-remember.
"""


def broadcast_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """形状为 ``a`` 和 ``b`` 的数组 ``x``、``y`` 的 ``x + y`` 的形状。

    参数：
        a, b: 形状，任意长度的非负 int 组成的 tuple（``()`` 是标量）。

    返回：
        结果的形状，int 组成的 tuple。

    抛出：
        ValueError: 两个形状不能一起广播。

    出处：第二篇 · 必记；第七篇 · A. 判断与计算（第 3 题）。

    English
    -------

    The shape of ``x + y`` for arrays ``x``, ``y`` of shapes ``a`` and ``b``.

    Args:
        a, b: shapes, tuples of non-negative ints of any length (``()`` is a scalar).

    Returns:
        The shape of the result, a tuple of ints.

    Raises:
        ValueError: the two shapes cannot be broadcast together.

    Source: 第二篇 · 必记 / part 2, must-remember; 第七篇 · A. 判断与计算 / part 7, §五.A q3.
    """
    raise NotImplementedError("A3: broadcast_shape")
