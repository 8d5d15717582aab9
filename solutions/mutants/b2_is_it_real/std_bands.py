"""Shades each config's band as mean +- 1 sample std, not the stub's mean +- 1 standard error.

Bands n^0.5 times too wide (2.2x with five seeds): part 2's own example, 5 seeds 0.30 apart with
a seed-to-seed std of 0.179, then overlaps (0.179 + 0.179 > 0.30), where the course reads it as a
difference: 「两条阴影带后期不重叠才算差别」. This was the check's own convention before issue 23.
"""

import math
import statistics

from solutions.b2_is_it_real import *  # noqa: F401,F403

KILLED_BY = ("score_verdict",)
MISCONCEPTION = "shade the seeds' bands as mean +- 1 std: part 2's example (0.30 apart, std 0.179) overlaps"


def verdict(scores_a, scores_b, n_questions):
    if len(scores_a) < 2 or len(scores_b) < 2:
        return "need_more_seeds"
    (ma, sa), (mb, sb) = [(statistics.mean(s), statistics.stdev(s)) for s in (scores_a, scores_b)]
    overlap = ma - sa <= mb + sb and mb - sb <= ma + sa
    p = (ma + mb) / 2
    ci = 1.96 * math.sqrt(p * (1 - p) / n_questions)
    return "real" if not overlap and abs(ma - mb) > ci else "not_shown"
