"""Counts elements with ``functools.reduce(operator.mul, shape)`` without an initial value: a
scalar's shape ``()`` raises TypeError instead of giving 1 element.

The numel bug PaddlePaddle/Paddle PR #53182 fixed for 0-D tensors ("reduce(lambda x,y:x*y, [])
... TypeError: reduce() of empty sequence with no initial value"); also nipype/pydra PR #818.
"""

import functools
import operator

from solutions.a2_nbytes_index import *  # noqa: F401,F403
from solutions.a2_nbytes_index import BYTES_PER_ELEMENT

KILLED_BY = ("nbytes_matches_meta_tensor",)
MISCONCEPTION = "multiply the dims with reduce() and no initial value: a scalar's shape () has no product"


def nbytes(shape, dtype):
    return functools.reduce(operator.mul, shape) * BYTES_PER_ELEMENT[dtype]
