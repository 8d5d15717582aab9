"""Uses log2 V (bits) instead of ln V (nats): 7 for V = 128 instead of 4.85."""

import math

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("first_loss_verdict",)


def first_loss_verdict(first_loss, vocab_size):
    gap = first_loss - math.log2(vocab_size)
    return "too_high" if gap > 1 else "too_low" if gap < -1 else "ok"
