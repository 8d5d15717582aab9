"""Check-side ground truth for the "is the conclusion real" exercises (B2, C6): multi-seed bands,
ci95 of an accuracy with the exact normal quantile, and the seven-item run record (part 2,
statistics; part 6, experiment management)."""

from __future__ import annotations

import math
import statistics

import numpy as np

Z95 = statistics.NormalDist().inv_cdf(0.975)  # 1.95996...
SEVEN_ITEMS = ("run_id", "commit", "config", "data_version", "seed", "environment", "metrics")
SETTINGS_ITEMS = ("commit", "config", "data_version", "seed", "environment")  # what must match to compare


def mean_std(values) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof=1), as numpy computes them."""
    a = np.asarray(values, dtype=np.float64)
    return float(a.mean()), float(a.std(ddof=1))


def bands_overlap(a, b) -> bool:
    (ma, sa), (mb, sb) = mean_std(a), mean_std(b)
    return ma - sa <= mb + sb and mb - sb <= ma + sa


def ci95_half_width(p: float, n: int) -> float:
    return Z95 * math.sqrt(p * (1 - p) / n)


def close(got: float, want: float) -> bool:
    """1.96 for the exact quantile is fine (relative 1e-3)."""
    return abs(got - want) <= 1e-3 * abs(want) + 1e-12
