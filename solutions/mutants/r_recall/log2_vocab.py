"""First-step loss in bits: log2 V instead of ln V (cross_entropy is in nats)."""

import math

from solutions.r_recall import *  # noqa: F401,F403

KILLED_BY = ("first_step_loss",)


def first_step_loss(vocab_size):
    return math.log2(vocab_size)
