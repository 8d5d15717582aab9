"""A2 — bytes of a tensor and the shape after indexing (part 7, §五.A question 2; part 2)."""

import math

BYTES_PER_ELEMENT = {
    "float64": 8,
    "float32": 4,
    "float16": 2,
    "bfloat16": 2,
    "int64": 8,
    "int32": 4,
    "int16": 2,
    "int8": 1,
    "uint8": 1,
    "bool": 1,
    "complex64": 8,
    "complex128": 16,
}


def nbytes(shape, dtype):
    """Elements x bytes per element."""
    return math.prod(shape) * BYTES_PER_ELEMENT[dtype]


def index_shape(shape, index):
    """Shape of x[index]: an int drops its dim, a slice keeps it, None adds a 1, ... fills in."""
    if not isinstance(index, tuple):
        index = (index,)
    consumed = sum(1 for item in index if item is not None and item is not Ellipsis)
    if consumed > len(shape):
        raise IndexError(f"too many indices: {consumed} for {len(shape)} dimensions")
    out, dim = [], 0
    for item in index:
        if item is None:
            out.append(1)
        elif item is Ellipsis:
            n = len(shape) - consumed
            out.extend(shape[dim : dim + n])
            dim += n
        elif isinstance(item, slice):
            out.append(len(range(*item.indices(shape[dim]))))
            dim += 1
        else:  # an int: checked, then the dimension disappears
            if not -shape[dim] <= item < shape[dim]:
                raise IndexError(f"index {item} out of range for dimension {dim} of size {shape[dim]}")
            dim += 1
    return tuple(out) + tuple(shape[dim:])
