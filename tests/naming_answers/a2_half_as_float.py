"""Takes every floating dtype as 4 bytes ("a float is 4 bytes"): bf16's 2 bytes per element missed (part 2: nbytes =
形状 × dtype 字节数)."""

import math

from solutions.a2_nbytes_index import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A2", ("half_precision_nbytes",), "counts bfloat16 / float16 as 4 bytes"


def nbytes(shape, dtype):
    size = {
        "float64": 8,
        "float32": 4,
        "float16": 4,
        "bfloat16": 4,
        "int64": 8,
        "int32": 4,
        "int16": 2,
        "int8": 1,
        "uint8": 1,
        "bool": 1,
        "complex64": 8,
        "complex128": 16,
    }[dtype]
    return math.prod(shape) * size
