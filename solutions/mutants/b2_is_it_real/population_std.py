"""Uses numpy's default population std (ddof=0) for the bands instead of the sample std (ddof=1).

The default that pandas-dev/pandas issue #47903 calls out ("Inconsistency in std() defaults
between Pandas compared to Xarray and NumPy": pandas divides by n - 1, numpy by n); the stub
asks for the sample std. With 2-5 seeds the bands are 13-29% too narrow, so overlapping bands
can look apart.
"""

import math

import numpy as np

from solutions.b2_is_it_real import *  # noqa: F401,F403

KILLED_BY = ("score_verdict",)
MISCONCEPTION = "use numpy's default np.std (ddof=0, population) instead of the sample std (ddof=1)"


def verdict(scores_a, scores_b, n_questions):
    if len(scores_a) < 2 or len(scores_b) < 2:
        return "need_more_seeds"
    (ma, sa), (mb, sb) = [(float(np.mean(s)), float(np.std(s) / np.sqrt(len(s)))) for s in (scores_a, scores_b)]
    overlap = ma - sa <= mb + sb and mb - sb <= ma + sa
    p = (ma + mb) / 2
    ci = 1.96 * math.sqrt(p * (1 - p) / n_questions)
    return "real" if not overlap and abs(ma - mb) > ci else "not_shown"
