"""Standard-error bands from statistics.pstdev, the population std (divisor N): the fix of
mwegrzyn/language-performance issue #27 ("whenever np.std() do np.std(ddof=1) ... set degrees of
freedom to be n-1") undone; pandas-dev/pandas PR #35986 documents that numpy's default normalizes by N."""

import math
import statistics

from solutions.b2_is_it_real import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "B2", ("score_verdict",), "uses the population std"


def verdict(scores_a, scores_b, n_questions):
    if len(scores_a) < 2 or len(scores_b) < 2:
        return "need_more_seeds"
    (ma, sa), (mb, sb) = [(statistics.mean(s), statistics.pstdev(s) / math.sqrt(len(s))) for s in (scores_a, scores_b)]
    p = (ma + mb) / 2
    apart = ma - sa > mb + sb or mb - sb > ma + sa
    return "real" if apart and abs(ma - mb) > 1.96 * math.sqrt(p * (1 - p) / n_questions) else "not_shown"
