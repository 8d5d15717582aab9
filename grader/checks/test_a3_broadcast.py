"""A3 — broadcasting. Ground truth: np.broadcast_shapes (part 2, broadcasting rules)."""

import numpy as np
import pytest
from hypothesis import given

from grader.checks.support import strategies
from grader.checks.support.checking import as_shape, expect_equal, expect_raises


@given(strategies.broadcastable_pairs)
def test_matches_numpy(learner, pair):
    a, b = pair
    got = as_shape(learner.broadcast_shape(a, b), f"broadcast_shape({a}, {b})")
    expect_equal(got, np.broadcast_shapes(a, b), f"broadcast_shape({a}, {b})")


@given(strategies.rank_mismatched_pairs())
def test_aligns_from_the_right(learner, pair):
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
