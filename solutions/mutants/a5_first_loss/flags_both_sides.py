"""Flags any first loss more than 1 nat away from ln V, below as well as above: a first loss far
BELOW ln V is flagged although the stub says only losses far above are.

A reading of "verify loss @ init: you should measure -log(1/n_classes)" (Karpathy, as quoted in
https://stats.stackexchange.com/questions/606359/how-to-initialize-final-layer-to-get-a-good-starting-loss)
as "any deviation is the init's fault"; too low a first loss points at leaked labels, not at the
output layer's scale (that is C2's "too_low", not A5's question).
"""

import math

from solutions.a5_first_loss import *  # noqa: F401,F403

KILLED_BY = ("flags_suspicious_loss",)
MISCONCEPTION = "flag first losses far below ln V too: only losses far above point at the init"


def is_suspicious(first_loss, vocab_size):
    return bool(abs(first_loss - math.log(vocab_size)) > 1.0)
