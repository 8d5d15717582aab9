"""Treats seed 0 as "no seed given" and takes one from the clock: ``seed = seed or int(time.time())``.

The falsy-seed bug fixed in huggingface/diffusers PR #10964 ("When args.seed is set to 0, the
condition `if args.seed else None` evaluates to None") and bcollazo/catanatron PR #254 ("`0 or
random` will be random everytime"). Every other seed is reproducible.
"""

import time

from solutions.p5_profile_record import *  # noqa: F401,F403
from solutions.p5_profile_record import make_loader as _right

KILLED_BY = ("seed_reproducible",)
MISCONCEPTION = "treat seed 0 as no seed (seed or time.time()): runs with seed 0 are not reproducible"


def make_loader(dataset, seed, batch_size):
    return _right(dataset, seed or int(time.time()), batch_size)
