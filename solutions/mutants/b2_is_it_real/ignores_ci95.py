"""Looks at the seed bands only and forgets the eval set's ci95 (80 questions: +-10.9 points)."""

import math
import statistics

from solutions.b2_is_it_real import *  # noqa: F403

KILLED_BY = ("score_verdict",)


def verdict(scores_a, scores_b, n_questions):
    if len(scores_a) < 2 or len(scores_b) < 2:
        return "need_more_seeds"
    (ma, sa), (mb, sb) = [(statistics.mean(s), statistics.stdev(s) / math.sqrt(len(s))) for s in (scores_a, scores_b)]
    return "not_shown" if ma - sa <= mb + sb and mb - sb <= ma + sa else "real"
