"""Squeezes both tensors before comparing shapes: (N,) and (N, 1) become (N,) and (N,), so the
mismatch the loss must refuse is silently "fixed" instead of reported.

The fix offered in jiwei0921/CoNet issue #3 and andrewgcodes/xlstm issue #4 to the broadcasting
warning (reshape the target until the warning goes), applied inside the loss where it hides the
caller's bug; the stub asks for a ValueError whenever ``pred.shape != target.shape``.
"""

import torch.nn.functional as F

from solutions.x2_silent_broadcast import *  # noqa: F403

KILLED_BY = ("safe_loss",)
MISCONCEPTION = "squeeze both tensors before comparing: (N,) vs (N, 1) must raise, not be made to fit"


def safe_mse(pred, target):
    pred, target = pred.squeeze(), target.squeeze()
    if pred.shape != target.shape:
        raise ValueError(f"shape mismatch: pred {tuple(pred.shape)} vs target {tuple(target.shape)}")
    return F.mse_loss(pred, target)
