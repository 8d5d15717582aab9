"""Returns the loss as a Python float (``.item()``) instead of a scalar tensor: the number is right,
but nothing can call ``.backward()`` on it and no gradient reaches pred.

swz30/MPRNet issue #108 and bnu-wangxun/Deep_Metric issue #26 ("AttributeError: 'float' object has
no attribute 'backward'"); v-mipeng/LexiconNER issue #7 (fixed by returning tensors).
"""

from solutions.x2_silent_broadcast import *  # noqa: F403
from solutions.x2_silent_broadcast import safe_mse as _reference

KILLED_BY = ("safe_loss",)
MISCONCEPTION = "return loss.item(): a Python float has no .backward(); return the scalar tensor"


def safe_mse(pred, target):
    return _reference(pred, target).item()
