"""Flags only a first loss above twice ln V: 15.0 against ln 151936 = 11.9 is not flagged,
although the course calls it clearly too high."""

import math

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("flags_suspicious_loss",)


def is_suspicious(first_loss, vocab_size):
    return bool(first_loss > 2 * math.log(vocab_size))
