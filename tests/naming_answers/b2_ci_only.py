"""Decides by ci95 alone, the seeds' bands unread: half of part 7's misconception-table answer,
「带 ci95 读表；多 seed 均值加阴影带，不重叠才算差别」."""

import math
import statistics

from solutions.b2_is_it_real import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "B2", ("score_verdict",), "ignores the seeds' bands"


def verdict(scores_a, scores_b, n_questions):
    if len(scores_a) < 2 or len(scores_b) < 2:
        return "need_more_seeds"
    ma, mb = statistics.mean(scores_a), statistics.mean(scores_b)
    p = (ma + mb) / 2
    return "real" if abs(ma - mb) > 1.96 * math.sqrt(p * (1 - p) / n_questions) else "not_shown"
