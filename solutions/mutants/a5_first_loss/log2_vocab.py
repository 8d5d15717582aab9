"""Uses log2 V (bits) instead of ln V (nats): cross_entropy is in nats, so 151936 -> 17.2, not 11.9,
and the 15.0 of the course is not flagged."""

import math

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("expected_first_loss", "flags_suspicious_loss")


def expected_first_loss(vocab_size):
    return math.log2(vocab_size)


def is_suspicious(first_loss, vocab_size):
    return bool(first_loss > expected_first_loss(vocab_size) + 1.0)
