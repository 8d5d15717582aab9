"""Compares the first loss with log10 V instead of the natural log: 2.1 for V = 128, not 4.85.

The expected value is "-log(1/n_classes)" in nats (Karpathy's "verify loss @ init", as quoted in
the Cross Validated question https://stats.stackexchange.com/questions/606359/how-to-initialize-final-layer-to-get-a-good-starting-loss);
``math.log10`` is the log a calculator's LOG key gives.
"""

import math

from solutions.c2_loss_triage import *  # noqa: F403

KILLED_BY = ("first_loss_verdict",)
MISCONCEPTION = "compare the first loss with log10(V) instead of ln(V) (cross-entropy is in nats)"


def first_loss_verdict(first_loss, vocab_size):
    gap = first_loss - math.log10(vocab_size)
    return "too_high" if gap > 1 else "too_low" if gap < -1 else "ok"
