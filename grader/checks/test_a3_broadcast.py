"""A3 — broadcasting. Ground truth: np.broadcast_shapes (part 2, broadcasting rules).

The contract's paths: equal ranks and different ranks (a missing leading dim is 1), size-0 dims
(0 with 1 gives 0; 0 with any other size raises, like any two sizes neither of which is 1: the
incompatible draw is checked again with its mismatched dim set to 0), scalars (), the course's
(8, 1, 64) + (16, 64); what the stub forbids (calling NumPy or torch to answer: their functions,
types, arrays, tensors, operators, in any thread or child process) is watched in the learner's
process and in its source (grader/checks/support/forbidden.py).
"""

import numpy as np
import pytest
from hypothesis import given

from grader.checks.support import strategies
from grader.checks.support.checking import as_shape, expect_equal, expect_raises


@given(strategies.broadcastable_pairs)
def test_matches_numpy(learner, pair):
    for a, b in [pair, ((1, 5), (0, 5))]:  # then a 1 against a 0, whatever the draw: it gives 0
        got = as_shape(learner.broadcast_shape(a, b), f"broadcast_shape({a}, {b})")
        expect_equal(got, np.broadcast_shapes(a, b), f"broadcast_shape({a}, {b})")


@given(strategies.rank_mismatched_pairs())
def test_different_lengths(learner, pair):
    a, b = pair
    for x, y in [((8, 1, 64), (16, 64)), (a, b)]:  # the course's example first
        got = as_shape(learner.broadcast_shape(x, y), f"broadcast_shape({x}, {y})")
        expect_equal(got, np.broadcast_shapes(x, y), f"broadcast_shape({x}, {y})",
                     hint="align from the right; a missing leading dim counts as 1")


@given(strategies.incompatible_pairs())
def test_raises_on_incompatible(learner, pair):
    a, b = pair
    with pytest.raises(ValueError):  # the ground truth refuses them
        np.broadcast_shapes(a, b)
    with expect_raises("ValueError", f"broadcast_shape({a}, {b}) must raise ValueError"):
        learner.broadcast_shape(a, b)
    # The same mismatch with a 0-length dim: only a 1 stretches, a 0 does not match a 3.
    i = next(k for k in range(1, min(len(a), len(b)) + 1) if a[-k] != b[-k] and 1 not in (a[-k], b[-k]))
    a0 = a[:len(a) - i] + (0,) + a[len(a) - i + 1:]
    with pytest.raises(ValueError):
        np.broadcast_shapes(a0, b)
    with expect_raises("ValueError", f"broadcast_shape({a0}, {b}) must raise ValueError (0 is not 1)"):
        learner.broadcast_shape(a0, b)
