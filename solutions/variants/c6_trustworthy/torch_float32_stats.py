"""seed_summary with torch in float32: ``t.mean()``, ``t.std()`` (torch's std is the sample std).

Valid: float32 rounding moves the values by ~1e-7 relative.
"""

import torch

from solutions.c6_trustworthy import *  # noqa: F401,F403

PASSES = ("seeds",)


def seed_summary(values):
    t = torch.tensor(values, dtype=torch.float32)
    return float(t.mean()), float(t.std())
