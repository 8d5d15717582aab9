"""Mixes the clock into the seed, ``seed + int(time.time())``, "so that each run is fresh": two runs
in the same second agree, runs a second apart do not.

The default of quantumgizmos/bp_osd issue #10 ("It is standard practice to generate a random seed
from the current time ... so simulations are truly random"), applied to a seed that was given;
within one second the same seed looks reproducible.
"""

import time

from solutions.p5_profile_record import *  # noqa: F401,F403
from solutions.p5_profile_record import make_loader as _right

KILLED_BY = ("seed_reproducible",)
MISCONCEPTION = "mix the clock into the seed (seed + int(time.time())): the same seed a second later differs"


def make_loader(dataset, seed, batch_size):
    return _right(dataset, seed + int(time.time()), batch_size)
