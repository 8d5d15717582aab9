"""A2 — bytes of a tensor and the shape after indexing (part 7, §五.A question 2; part 2, ndarray).

The course's question: ``x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16)``: what is
``x.nbytes``? What are the shapes of ``x[:, -1]`` and ``x[:, -1:]``? Answer it for any shape,
dtype and index, by arithmetic: do not create tensors or arrays (no torch / numpy here).
"""


def nbytes(shape: tuple[int, ...], dtype: str) -> int:
    """Bytes of a contiguous tensor of this shape and dtype: number of elements x bytes per element.

    Args:
        shape: a tuple of non-negative ints (``()`` is a scalar: 1 element; a 0 anywhere: 0 bytes).
        dtype: a dtype name as torch spells it without ``torch.``: ``"float64"``, ``"float32"``,
            ``"float16"``, ``"bfloat16"``, ``"int64"``, ``"int32"``, ``"int16"``, ``"int8"``,
            ``"uint8"``, ``"bool"``, ``"complex64"``, ``"complex128"``.

    Returns:
        The size in bytes as an int (not MiB/GiB), e.g. ``(16, 512, 1024), "bfloat16"`` ->
        16,777,216 bytes = 16 MiB. It must equal ``torch.empty(shape, dtype=...).nbytes``.

    Source: part 2, §ndarray "ndarray = memory + shape + dtype; nbytes is where the memory
    account starts"; part 7, §五.A question 2 (bf16 is 2 bytes per element).
    """
    raise NotImplementedError("A2: nbytes")


def index_shape(shape: tuple[int, ...], index: tuple) -> tuple[int, ...]:
    """The shape of ``x[index]`` for a tensor ``x`` of shape ``shape`` (basic indexing only).

    Args:
        shape: a tuple of non-negative ints.
        index: a tuple (``x[a, b]`` is ``x[(a, b)]``; ``x[i]`` arrives as ``(i,)``) whose items are
            * an int, possibly negative, always in range for its dimension: removes that dimension;
            * a ``slice`` (start/stop may be None, negative or past the ends; step is None or a
              positive int): keeps the dimension, with length ``len(range(*s.indices(n)))`` —
              also when that length is 1 or 0;
            * ``None``: inserts a new dimension of length 1 at that place;
            * ``Ellipsis`` (``...``), at most once: stands for as many ``:`` as needed.
            Dimensions not reached by the index are kept whole (``x[0]`` of (2, 3, 4) is (3, 4)).

    Returns:
        The resulting shape as a tuple of ints, e.g. for shape (16, 512, 1024):
        ``(slice(None), -1)`` -> (16, 1024); ``(slice(None), slice(-1, None))`` -> (16, 1, 1024);
        ``(Ellipsis, None, 0)`` -> (16, 512, 1).

    Source: part 2, §ndarray "an integer index removes a dimension, a slice keeps it"; part 7,
    §五.A question 2.
    """
    raise NotImplementedError("A2: index_shape")
