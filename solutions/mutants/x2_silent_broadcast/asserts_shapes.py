"""Checks the shapes with ``assert pred.shape == target.shape``: an AssertionError instead of the
ValueError asked for, and no check at all under ``python -O`` (asserts are stripped).

kgdunn/process-improve issue #243 ("shape validation done via assert is removed when Python runs
with -O, silently disabling the checks"); NVlabs/alpamayo PR #50 (``assert frames.ndim == 4``
replaced by ``raise ValueError``); greenbone/gvm-tools PR #32.
"""

import torch.nn.functional as F

from solutions.x2_silent_broadcast import *  # noqa: F403

KILLED_BY = ("safe_loss",)
MISCONCEPTION = "assert the shapes: an AssertionError (gone under python -O); raise ValueError"


def safe_mse(pred, target):
    assert pred.shape == target.shape, f"shape mismatch: {tuple(pred.shape)} vs {tuple(target.shape)}"
    return F.mse_loss(pred, target)
