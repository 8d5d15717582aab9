"""Uses the standard deviation of one Bernoulli trial, sqrt(p(1-p)), instead of the standard error
of the mean of n of them, sqrt(p(1-p)/n): the interval does not shrink with more examples.

telmo-correa/all-of-statistics PR #2 ("should be sqrt(p * (1 - p) / n) instead of just
sqrt(p * (1 - p)), which is the standard deviation"); OHDSI/CohortDiagnostics issue #1068
("calculated as SQRT(p(1-p)) ... defined as SQRT(p(1-p)/n)").
"""

import math

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("ci95",)
MISCONCEPTION = "leave out the /n: sqrt(p(1-p)) is one trial's spread, the mean of n has sqrt(p(1-p)/n)"


def ci95_half_width(p, n):
    return 1.96 * math.sqrt(p * (1 - p))
