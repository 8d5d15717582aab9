"""B2 — is a 0.5-point difference real (part 7 §五.B q2; parts 2 and 6)."""

import math
import statistics

SETTINGS = ("commit", "config", "data_version", "seed", "environment")


def diff_records(a, b):
    return sorted(k for k in SETTINGS if a[k] != b[k])


def verdict(scores_a, scores_b, n_questions):
    if len(scores_a) < 2 or len(scores_b) < 2:
        return "need_more_seeds"
    # each band: mean +- 1 standard error (the stub's convention; part 2's 0.30 apart at std 0.179 is apart)
    (ma, sa), (mb, sb) = [(statistics.mean(s), statistics.stdev(s) / math.sqrt(len(s))) for s in (scores_a, scores_b)]
    overlap = ma - sa <= mb + sb and mb - sb <= ma + sa
    p = (ma + mb) / 2
    ci = 1.96 * math.sqrt(p * (1 - p) / n_questions)
    return "real" if not overlap and abs(ma - mb) > ci else "not_shown"
