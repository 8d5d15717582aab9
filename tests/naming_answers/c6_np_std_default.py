"""Summarises seeds with np.std's default ddof=0: pandas-dev/pandas PR #35986 documents that numpy
"by default normalizes by N", unlike the sample std a handful of seeds needs."""

import numpy as np

from solutions.c6_trustworthy import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C6", ("seeds",), "uses the population std"


def seed_summary(values):
    return float(np.mean(values)), float(np.std(values))
