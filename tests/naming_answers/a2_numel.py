"""Returns the number of elements as the size (x.numel() read for x.nbytes)."""

import math

from solutions.a2_nbytes_index import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "A2", ("nbytes_matches_meta_tensor",), "counts elements"


def nbytes(shape, dtype):
    return math.prod(shape)
