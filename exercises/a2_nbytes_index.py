"""A2 — bytes of a tensor and the shape after indexing.

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
    """Bytes of a contiguous tensor of this shape and dtype.

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
    """The shape of ``x[index]`` for a tensor ``x`` of shape ``shape`` (basic indexing only).

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
