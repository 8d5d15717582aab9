"""Skips the two-seed rule and takes ``np.std(scores, ddof=1)`` of a single seed: NaN, and every
comparison with NaN is False, so "the bands overlap" is False and one run can come out "real".

numpy returns NaN with "RuntimeWarning: Degrees of freedom <= 0 for slice" (numpy/numpy issue
#15219); torch likewise (pytorch/pytorch issue #109696, which added a warning for it).
"""

import math
import warnings

import numpy as np

from solutions.b2_is_it_real import *  # noqa: F401,F403

KILLED_BY = ("score_verdict",)
MISCONCEPTION = "compute the std of a single seed (NaN with ddof=1) instead of answering need_more_seeds"


def verdict(scores_a, scores_b, n_questions):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (ma, sa), (mb, sb) = [
            (float(np.mean(s)), float(np.std(s, ddof=1) / np.sqrt(len(s)))) for s in (scores_a, scores_b)
        ]
    overlap = ma - sa <= mb + sb and mb - sb <= ma + sa
    p = (ma + mb) / 2
    ci = 1.96 * math.sqrt(p * (1 - p) / n_questions)
    return "real" if not overlap and abs(ma - mb) > ci else "not_shown"
