"""X2 — silent broadcasting. Ground truth: torch itself: the check computes ``pred - target``
and the mean of its square for drawn (N,) vs (N, 1)-style pairs, and ``F.mse_loss`` for equal
shapes (part 2, broadcasting; part 7 §四 "shape errors often raise nothing").

Contract paths: naive_mse's two returned values (loss and shape) on the course's (3,) vs (3, 1)
and on drawn pairs; safe_mse raising ValueError (not AssertionError) for broadcastable pairs and for
same-numel different shapes, its value on equal shapes, its type (a tensor), and its gradient: the
loss is back-propagated in the learner's process (grader/drivers/gradients.py) and d/dpred must
equal autograd's on F.mse_loss (a loss rebuilt from .item() has the right value and no gradient).
The graph exists only in the learner's process; what comes back is the gradient tensor, compared
here with autograd's, so a report forged there must contain d/dpred itself (``has_graph`` only
ever adds a reason to fail)."""

import math

import numpy as np
import torch
import torch.nn.functional as F
from hypothesis import given, settings, strategies as st

from grader.checks.support import strategies
from grader.checks.support.checking import as_number, as_shape, expect_close, expect_equal, expect_raises, fail
from grader.drivers.gradients import cotangent
from grader.i18n import _


def _tensors(shapes, seed):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(s, generator=g, dtype=torch.float64) for s in shapes]


@settings(max_examples=20)
@given(strategies.silently_broadcasting_pairs(), st.integers(0, 2**31 - 1))
def test_naive_loss(learner, shapes, seed):
    pred, target = _tensors(shapes, seed)
    for p, t in [_tensors([(3,), (3, 1)], seed), (pred, target)]:  # the course's (3,) + (3, 1) first
        what = f"naive_mse(pred {tuple(p.shape)}, target {tuple(t.shape)})"
        got = learner.naive_mse(p, t)
        if type(got) not in (tuple, list) or len(got) != 2:
            fail(_("{what} must return (loss, shape)", what=what), _("(float, tuple)"), got)
        expect_equal(
            as_shape(got[1], what + " shape"),
            np.broadcast_shapes(p.shape, t.shape),
            _("{what}: shape of pred - target", what=what),
            hint=_("it runs without an error: (N,) - (N, 1) broadcasts to (N, N)"),
        )
        want = float(((p - t) ** 2).mean())
        loss = as_number(got[0], what + " loss")
        if not math.isclose(loss, want, rel_tol=1e-6, abs_tol=1e-9):  # a float64 mean of float32 tensors is right too
            fail(
                _("{what}: the mean over the broadcast (N, N) matrix (a number, just the wrong one)", what=what),
                want,
                loss,
            )


@settings(max_examples=20)
@given(strategies.silently_broadcasting_pairs(), st.integers(0, 2**31 - 1))
def test_safe_loss(learner, shapes, seed):
    pred, target = _tensors(shapes, seed)
    with expect_raises(
        "ValueError",
        _(
            "safe_mse(pred {shape}, target {shape2}) must raise ValueError",
            shape=tuple(pred.shape),
            shape2=tuple(target.shape),
        ),
    ):
        learner.safe_mse(pred, target)
    other = pred.reshape(1, -1) if pred.dim() == 1 else pred.reshape(-1)  # same elements, other shape
    with expect_raises(
        "ValueError",
        _(
            "safe_mse(pred {shape}, target {shape2}) must raise ValueError (same number of elements, different shape)",
            shape=tuple(pred.shape),
            shape2=tuple(other.shape),
        ),
    ):
        learner.safe_mse(pred, other)
    same = _tensors([pred.shape, pred.shape], seed + 1)
    expect_close(
        learner.safe_mse(*same),
        F.mse_loss(*same),
        _("safe_mse on equal shapes {shape}", shape=tuple(pred.shape)),
        atol=1e-12,
        rtol=1e-12,
        hint=_("equal shapes: the ordinary mean squared error"),
    )
    # The returned loss is what training calls .backward() on: the gradient must reach pred.
    got = learner.drive("grader.drivers.gradients:grad_of", "safe_mse", list(same), wrt=[0], seed=seed)
    p = same[0].clone().requires_grad_(True)
    F.mse_loss(p, same[1]).backward(cotangent((), torch.float64, seed))
    what = _(
        "gradient of safe_mse(pred {shape}, target) with respect to pred (loss.backward() in your process)",
        shape=tuple(pred.shape),
    )
    if not got["has_graph"] or got["grads"][0] is None:
        fail(
            what,
            _("the gradient 2 (pred - target) / N"),
            _("no gradient: the returned loss is not connected to pred"),
            hint=_(
                "return F.mse_loss(pred, target) itself: no .item(), no "
                "torch.tensor(value), no .detach(), no torch.no_grad()"
            ),
        )
    expect_close(got["grads"][0], p.grad, what, atol=1e-12, rtol=1e-9, hint=_("d/dpred mean((pred - target)^2)"))
