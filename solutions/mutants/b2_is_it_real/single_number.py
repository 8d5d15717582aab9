"""'Higher mean is better': any difference of the means counts as real, one seed is enough."""

import statistics

from solutions.b2_is_it_real import *  # noqa: F403

KILLED_BY = ("score_verdict",)


def verdict(scores_a, scores_b, n_questions):
    return "real" if statistics.mean(scores_a) != statistics.mean(scores_b) else "not_shown"
