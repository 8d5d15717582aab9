"""A valid A2 answer by arithmetic alone, with a table built at import and the work done in a thread:
neither torch nor numpy is touched, so nothing the stub forbids is reported."""

import math
import threading

_SIZES = {
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
    out = []
    t = threading.Thread(target=lambda: out.append(math.prod(shape) * _SIZES[dtype]))
    t.start()
    t.join()
    return out[0]
