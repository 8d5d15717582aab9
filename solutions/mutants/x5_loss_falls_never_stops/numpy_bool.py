"""Returns NumPy's bool (``np.mean(losses[-3:]) < 0.5 * losses[0]`` is a ``numpy.bool_``) where the
stub asks for a Python bool: it prints True, but ``json.dumps`` refuses it and ``x is True`` is
False.

MTG/sms-tools issue #51 ("numpy booleans are not JSON serializable": ``np.all()`` returned, the
submit script's json.dumps failed; workaround ``bool(...)``); wikimedia/revscoring issue #47; ijl/orjson
issue #554 (``np.float64(1.0) == 1.0`` is a numpy.bool).
"""

import numpy as np

from solutions.x5_loss_falls_never_stops import *  # noqa: F401,F403

KILLED_BY = ("loss_curve",)
MISCONCEPTION = "return NumPy's bool: wrap it in bool(...) — the answer must be a Python bool"


def loss_fell(losses):
    return np.mean(np.asarray(losses[-3:], dtype=np.float64)) < 0.5 * losses[0]
