"""Counts bfloat16 as 4 bytes per element (as if "mixed precision" kept fp32 storage)."""

import math

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.a2_nbytes_index import BYTES_PER_ELEMENT

KILLED_BY = ("half_precision_nbytes", "nbytes_matches_meta_tensor")


def nbytes(shape, dtype):
    return math.prod(shape) * {**BYTES_PER_ELEMENT, "bfloat16": 4}[dtype]
