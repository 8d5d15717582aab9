"""Adds the clock in seconds to the seed (``seed + int(time.time())``): calls within one second
agree, so a check that calls twice in a row sees "reproducible".

The time-seeded default of quantumgizmos/bp_osd issue #10 applied to a given seed; the same
shape as microsoft/bioemu PR #180 ("By default, use system time for seed").
"""

import time

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import seeded_experiment as _right

KILLED_BY = ("seeded_reruns",)
MISCONCEPTION = "mix the clock into the seed: the same seed a second later gives another number"


def seeded_experiment(seed):
    return _right(seed + int(time.time()))
