"""Takes math.log(V, 10) for the uniform loss: the course's 「第一步 loss 该 ≈ ln V（词表 128 是 4.85）」
(part 7, §五.C question 2's answer) is the natural log."""

import math

from solutions.c2_loss_triage import *  # noqa: F401,F403

EXERCISE, CAUGHT_BY, NAMES = "C2", ("first_loss_verdict",), "compares with log10 V"


def first_loss_verdict(first_loss, vocab_size):
    gap = first_loss - math.log(vocab_size, 10)
    return "ok" if abs(gap) <= 1 else ("too_high" if gap > 0 else "too_low")
