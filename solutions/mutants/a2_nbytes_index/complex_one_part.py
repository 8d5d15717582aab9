"""Sizes a complex element by one of its parts: complex64 as 4 bytes (a float32), complex128 as 8
(a float64), half of what the real and imaginary parts take together (8 and 16).

The buffer-size bug ahay/src PR #158 fixed ("Complex64 data type takes 8 bytes instead of 4 in
int32 and float32, buffer size has to change accordingly") and tbeu/matio issue #184 reported
("a double complex Matlab array ... shouldn't data_size be 16 for one element, i.e. 2 *
sizeof(double)? The nbytes therefore is undersized by a factor of 2").
"""

import math

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.a2_nbytes_index import BYTES_PER_ELEMENT

KILLED_BY = ("nbytes_matches_meta_tensor",)
MISCONCEPTION = "size a complex element by one part (complex64 as 4 bytes): real and imaginary parts both count"


def nbytes(shape, dtype):
    return math.prod(shape) * {**BYTES_PER_ELEMENT, "complex64": 4, "complex128": 8}[dtype]
