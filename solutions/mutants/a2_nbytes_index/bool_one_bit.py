"""Counts a bool as one bit (elements / 8, rounded up); torch stores one byte per bool."""

import math

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.a2_nbytes_index import BYTES_PER_ELEMENT

KILLED_BY = ("nbytes_matches_meta_tensor",)


def nbytes(shape, dtype):
    if dtype == "bool":
        return math.ceil(math.prod(shape) / 8)
    return math.prod(shape) * BYTES_PER_ELEMENT[dtype]
