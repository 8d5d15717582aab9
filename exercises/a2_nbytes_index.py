"""A2 — 张量的字节数与索引后的形状。

课程问（第七篇 · 五、通关自测 · A. 判断与计算，第 2 题）::

    x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16)：x.nbytes 多少？x[:, -1] 与 x[:, -1:] 各是什么形状？

对任意形状、dtype 和索引作答，靠算术：这里不要创建张量或数组（不用 torch，不用 numpy）；要点就是
知道各种大小和索引规则。

评分器测什么：你的答案与 meta 设备上同形状、同 dtype 的真实张量（它的 ``nbytes`` 和
``x[index].shape``）相比，在课程的例子和抽取的例子上。

学习：第二篇 · 结论（ndarray、索引）；第七篇 · A. 判断与计算。

English
-------

A2 — bytes of a tensor and the shape after indexing.

The course asks (第七篇 · 五、通关自测 · A. 判断与计算, question 2)::

    x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16)：x.nbytes 多少？x[:, -1] 与 x[:, -1:] 各是什么形状？

    x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16): what is x.nbytes? What are the
    shapes of x[:, -1] and x[:, -1:]?

Answer it for any shape, dtype and index, by arithmetic: do not create tensors or arrays here
(no torch, no numpy); knowing the sizes and the indexing rules is the point.

What the grader measures: your answers against a real tensor of that shape and dtype on the
meta device (its ``nbytes`` and ``x[index].shape``), on the course's example and on drawn ones.

Study: 第二篇 · 结论 / part 2, conclusion (ndarray, indexing); 第七篇 · A. 判断与计算 / part 7, §五.A.
"""


def nbytes(shape: tuple[int, ...], dtype: str) -> int:
    """这个形状和 dtype 的连续张量的字节数。

    参数：
        shape: 非负 int 组成的 tuple（``()`` 是标量）。
        dtype: torch 去掉 ``torch.`` 后的 dtype 名字：``"float64"``、``"float32"``、
            ``"float16"``、``"bfloat16"``、``"int64"``、``"int32"``、``"int16"``、``"int8"``、
            ``"uint8"``、``"bool"``、``"complex64"``、``"complex128"``。

    返回：
        以字节为单位的大小，int（不是 MiB，不是 GiB）。

    测的是：与 ``torch.empty(shape, dtype=..., device="meta").nbytes`` 相比。

    出处：第二篇 · 结论；第七篇 · A. 判断与计算（第 2 题）。

    English
    -------

    Bytes of a contiguous tensor of this shape and dtype.

    Args:
        shape: a tuple of non-negative ints (``()`` is a scalar).
        dtype: a dtype name as torch spells it without ``torch.``: ``"float64"``, ``"float32"``,
            ``"float16"``, ``"bfloat16"``, ``"int64"``, ``"int32"``, ``"int16"``, ``"int8"``,
            ``"uint8"``, ``"bool"``, ``"complex64"``, ``"complex128"``.

    Returns:
        The size in bytes, an int (not MiB, not GiB).

    Measured: against ``torch.empty(shape, dtype=..., device="meta").nbytes``.

    Source: 第二篇 · 结论 / part 2, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q2.
    """
    raise NotImplementedError("A2: nbytes")


def index_shape(shape: tuple[int, ...], index: tuple) -> tuple[int, ...]:
    """形状为 ``shape`` 的张量 ``x`` 的 ``x[index]`` 的形状（只考虑基本索引）。

    参数：
        shape: 非负 int 组成的 tuple。
        index: 一个 tuple，即 Python 传给 ``__getitem__`` 的样子（``x[a, b]`` 传来的是
            ``(a, b)``，``x[i]`` 是 ``(i,)``，``x[1:3, None]`` 是 ``(slice(1, 3), None)``）。
            它的元素是 int（可能为负，总在其维度的范围内）、``slice`` 对象（start 和 stop 可以
            是 None、负数或超出任一端；step 是 None 或正 int）、``None``，以及最多一个 ``Ellipsis``。

    返回：
        结果的形状，int 组成的 tuple。

    测的是：与 ``torch.empty(shape, device="meta")[index].shape`` 相比。

    出处：第二篇 · 结论；第七篇 · A. 判断与计算（第 2 题）。

    English
    -------

    The shape of ``x[index]`` for a tensor ``x`` of shape ``shape`` (basic indexing only).

    Args:
        shape: a tuple of non-negative ints.
        index: a tuple, as Python passes it to ``__getitem__`` (``x[a, b]`` arrives as
            ``(a, b)``, ``x[i]`` as ``(i,)``, ``x[1:3, None]`` as ``(slice(1, 3), None)``).
            Its items are ints (possibly negative, always in range for their dimension),
            ``slice`` objects (start and stop may be None, negative or past either end; step is
            None or a positive int), ``None`` and at most one ``Ellipsis``.

    Returns:
        The resulting shape, a tuple of ints.

    Measured: against ``torch.empty(shape, device="meta")[index].shape``.

    Source: 第二篇 · 结论 / part 2, conclusion; 第七篇 · A. 判断与计算 / part 7, §五.A q2.
    """
    raise NotImplementedError("A2: index_shape")
