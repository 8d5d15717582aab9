"""Draws the weight with NumPy and wraps it with ``torch.from_numpy``: std 0.02 as intended, but the
tensor is float64, not the float32 the output layer holds.

The float64-from-NumPy slip behind "expected scalar type Double but found Float"
(OUCMachineLearning/OUCML issue #24: ``torch.from_numpy(np.random.normal(0, 1, ...))`` fixed by
``.to(torch.float32)``).
"""

import numpy as np
import torch

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("init_first_loss",)
MISCONCEPTION = "build the weight with NumPy (float64) and torch.from_numpy: the layer's dtype is float32"


def init_output_layer(vocab_size, n_embd):
    return torch.from_numpy(np.random.default_rng(0).normal(0.0, 0.02, (vocab_size, n_embd)))
