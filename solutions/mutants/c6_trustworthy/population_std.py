"""Uses the population std (ddof=0): the bands come out too narrow on a few seeds."""

import statistics

from solutions.c6_trustworthy import *  # noqa: F403

KILLED_BY = ("seeds",)


def seed_summary(values):
    return statistics.mean(values), statistics.pstdev(values)
