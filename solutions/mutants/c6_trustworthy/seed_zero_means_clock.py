"""Treats seed 0 as "no seed": ``seed = seed or time.time_ns()``; every other seed is reproducible.

The falsy-seed bug of InternLM/lmdeploy PR #4526 ("passing seed=0 results in random_seed = None
... silently discarded") and cjekel/piecewise_linear_fit_py PR #118 ("The old check `if seed:`
ignored `seed=0`").
"""

import time

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import seeded_experiment as _right

KILLED_BY = ("seeded_reruns",)
MISCONCEPTION = "treat seed 0 as no seed (seed or time...): seeded_experiment(0) is not reproducible"


def seeded_experiment(seed):
    return _right(seed or time.time_ns() % 2**31)
