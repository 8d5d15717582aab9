"""A3 — broadcasting. Ground truth: np.broadcast_shapes (part 2, broadcasting rules).

The contract's paths: equal ranks and different ranks (a missing leading dim is 1), size-0 dims
(0 with 1 gives 0; 0 with any other size raises, like any two sizes neither of which is 1: the
incompatible draw is checked again with its mismatched dim set to 0), scalars (), the course's
(8, 1, 64) + (16, 64); what the stub forbids (calling NumPy or torch to answer: their functions,
types, arrays, tensors, operators, in any thread or child process) is watched in the learner's
process and in its source (its rule: grader/course/do_not_call.py).
"""

import numpy as np
import pytest
from hypothesis import given

from grader.checks.support import strategies
from grader.checks.support.checking import as_shape, expect_equal, expect_raises
from grader.i18n import _


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
        expect_equal(
            got,
            np.broadcast_shapes(x, y),
            f"broadcast_shape({x}, {y})",
            hint=_("align from the right; a missing leading dim counts as 1"),
        )


@given(strategies.incompatible_pairs())
def test_raises_on_incompatible(learner, pair):
    a, b = pair
    with pytest.raises(ValueError):  # the ground truth refuses them
        np.broadcast_shapes(a, b)
    with expect_raises("ValueError", _("broadcast_shape({a}, {b}) must raise ValueError", a=a, b=b)):
        learner.broadcast_shape(a, b)
    # The same mismatch with a 0-length dim: only a 1 stretches, a 0 does not match a 3.
    i = next(k for k in range(1, min(len(a), len(b)) + 1) if a[-k] != b[-k] and 1 not in (a[-k], b[-k]))
    a0 = a[: len(a) - i] + (0,) + a[len(a) - i + 1 :]
    with pytest.raises(ValueError):
        np.broadcast_shapes(a0, b)
    with expect_raises("ValueError", _("broadcast_shape({a0}, {b}) must raise ValueError (0 is not 1)", a0=a0, b=b)):
        learner.broadcast_shape(a0, b)


# ------------------------------------------------------------------ mistakes named by what the answer does
from grader.checks.support.mistakes import Raised, gives, mistake  # noqa: E402


def _rule(a, b, pad_left=True, match=lambda x, y: x == y or 1 in (x, y), pick=lambda x, y: y if x == 1 else x):
    n = max(len(a), len(b))
    fill = lambda s: (1,) * (n - len(s)) + tuple(s) if pad_left else tuple(s) + (1,) * (n - len(s))  # noqa: E731
    out = []
    for x, y in zip(fill(a), fill(b), strict=True):
        if not match(x, y):
            return Raised("ValueError")
        out.append(pick(x, y))
    return tuple(out)


def _truth(a, b):
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return Raised("ValueError")


_ANY = ("matches_numpy", "different_lengths", "raises_on_incompatible")
mistake(
    *_ANY,
    function="broadcast_shape",
    probe=(((3,), (3, 1)), {}),
    zh="从左边对齐了形状：广播从右边（最后一维）对齐，缺的前导维当作 1",
    en="aligns the shapes from the left: broadcasting aligns from the right, a missing leading dim is 1",
)(gives(lambda a, b: _rule(a, b, pad_left=False), _truth))


@mistake(
    *_ANY,
    function="broadcast_shape",
    probe=(((3,), (3, 1)), {}),
    zh="丢掉了较长形状多出的前导维（zip 在较短的形状处停下）",
    en="drops the longer shape's extra leading dims (zip stops at the shorter shape)",
)
def _drops_leading(got, a, b):
    return isinstance(got, tuple) and len(a) != len(b) and len(got) == min(len(a), len(b))


@mistake(
    *_ANY,
    function="broadcast_shape",
    probe=(((3,), (3, 1)), {}),
    zh="维数不同就报错了：缺的前导维当作 1，(3,) 与 (3, 1) 广播成 (3, 3)",
    en="refuses shapes of different lengths: a missing leading dim counts as 1, (3,) with (3, 1) is (3, 3)",
)
def _refuses_ranks(got, a, b):
    return got == Raised("ValueError") and len(a) != len(b) and not isinstance(_truth(a, b), Raised)


mistake(
    *_ANY,
    function="broadcast_shape",
    probe=(((1, 5), (0, 5)), {}),
    zh="取了两个尺寸中较大的那个：只有 1 能拉伸（拉伸到任何尺寸，包括 0），其他不同的尺寸要报错",
    en="takes the larger of two sizes: only a 1 stretches (to any size, 0 included); other sizes that differ raise",
)(gives(lambda a, b: _rule(a, b, match=lambda x, y: True, pick=max), _truth))
mistake(
    "raises_on_incompatible",
    "matches_numpy",
    function="broadcast_shape",
    probe=(((0, 3), (4, 3)), {}),
    zh="把 0 当成了能与任何尺寸匹配：只有 1 能拉伸，0 对 3 要报错",
    en="lets a 0 match any size: only a 1 stretches, 0 against 3 raises",
)(
    gives(
        lambda a, b: _rule(
            a,
            b,
            match=lambda x, y: x == y or 1 in (x, y) or 0 in (x, y),
            pick=lambda x, y: 0 if 0 in (x, y) else (y if x == 1 else x),
        ),
        _truth,
    )
)
