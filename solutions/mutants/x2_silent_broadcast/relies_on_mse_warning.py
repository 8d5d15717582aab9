"""Calls ``F.mse_loss(pred, target)`` and trusts it to refuse a mismatch: it only WARNS ("Using a
target size ... that is different to the input size ... This will likely lead to incorrect results
due to broadcasting") and returns the broadcast mean.

pytorch/pytorch issue #16045 and PR #18349 ("the issue of broadcasting giving the wrong result in
nn.MSELoss() ... when computing the loss between tensors with shapes (n, 1) and (n,)": a warning was
added, not an error); andrewgcodes/xlstm issue #4 and weka511/hpa-scc issue #38 (training ran on
with that warning).
"""

import torch.nn.functional as F

from solutions.x2_silent_broadcast import *  # noqa: F403

KILLED_BY = ("safe_loss",)
MISCONCEPTION = "rely on F.mse_loss to refuse a mismatch: it only warns and returns the broadcast mean"


def safe_mse(pred, target):
    return F.mse_loss(pred, target)
