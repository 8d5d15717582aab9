"""Derives the generator's seed from ``hash()`` of a string ("c6-experiment-<seed>"): the same
seed gives the same number within one Python process, another one in the next process, because
CPython salts str hashes per interpreter (PYTHONHASHSEED).

The bug fixed in PolicyEngine/policyengine-core PR #455 ("Fix non-reproducible numpy.random seeds
from hash() of strings") and reported in for-all-dev/git-history-evals issue #120 ("eval sample is
not reproducible — hash(out_dir) is PYTHONHASHSEED-salted").
"""

from solutions.c6_trustworthy import *  # noqa: F403
from solutions.c6_trustworthy import seeded_experiment as _right

KILLED_BY = ("seeded_reruns",)
MISCONCEPTION = "derive the seed from hash() of a string: the same seed differs in every new Python process"


def seeded_experiment(seed):
    return _right(hash(f"c6-experiment-{seed}") % 2**31)
