"""Reads the element size off the dtype's name (the digits / 8): right for every name with a bit
count, but "bool" has none (it is 1 byte) and "complex64" is 64 bits for BOTH parts (8 bytes,
as read), while "complex128" is 16.

A learner's shortcut seen in quantisation helpers; the bool case alone kills it (``int("")``
raises ValueError). Cited for the bits-per-name reading: the size table of
https://pytorch.org/docs/stable/tensor_attributes.html lists bool apart, with no bit count.
"""

import math
import re

from solutions.a2_nbytes_index import *  # noqa: F401,F403

KILLED_BY = ("nbytes_matches_meta_tensor",)
MISCONCEPTION = "read the element size from the digits of the dtype's name: bool has none (1 byte)"


def nbytes(shape, dtype):
    bits = re.sub(r"\D", "", dtype)
    return math.prod(shape) * (int(bits) // 8)
